package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.replay.Archive;
import io.signalman.replay.RecordedHistory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The seed bundle's dispatch history (a frozen copy of the shipped replay-fixtures/dispatch, see
 * {@link TestBundles}): every recorded decision is what the hand-written seed dispatcher decides
 * (that it replays unchanged against the seed rules, fires every seed dispatch and scoring rule and
 * holds the seed's examples and edge cases is {@link io.signalman.replay.SeedHistoryTest}'s).
 */
class DispatchFixturesTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("dispatch");

    @Test
    void everyRecordedDecisionIsTheSeedsDecision() throws Exception {
        RecordedHistory.assertEveryRecord(HISTORY, rules -> {
            SeedDispatcher seed = SeedDispatcher.of(rules.requirePack("dispatch").reference().as(DispatchReference.class));
            return e -> {
                SeedDispatcher.Expected want = seed.dispatch(Packs.DISPATCH.parseInput(e.record().input()));
                JsonNode got = e.record().decision();
                List<String> mismatches = new ArrayList<>();
                Map<String, Object> fields = Map.of(
                        "agent_id", want.agent(), "channel", want.channel(), "account_id", want.account(),
                        "matched_by", want.matchedBy(), "session_key", want.sessionKey());
                fields.forEach((f, v) -> {
                    if (!v.equals(got.path(f).asText())) {
                        mismatches.add(f + " recorded " + got.get(f) + ", seed " + v);
                    }
                });
                List<String> dims = new ArrayList<>();
                got.path("session_policy").path("dimensions").forEach(n -> dims.add(n.asText()));
                JsonNode model = got.path("model");
                if (!dims.equals(want.dimensions()) || !model.path("name").asText().equals(want.model())
                        || model.path("light").asBoolean() != want.light()
                        || Math.abs(model.path("score").asDouble() - want.score()) > 1e-9) {
                    mismatches.add("recorded " + dims + " " + model + ", seed " + want);
                }
                return mismatches;
            };
        });
    }

    @Test
    void theSeedsExamplesAreRecordedWithTheSeedsMatchedBy() throws Exception {
        Map<String, JsonNode> byId = Archive.read(List.of(HISTORY)).files().stream().flatMap(f -> f.entries().stream())
                .collect(Collectors.toMap(e -> e.record().input().path("id").asText(), e -> e.record().decision(), (a, b) -> a));
        assertEquals("support", byId.get("seed-support-group").path("agent_id").asText());
        assertEquals("dispatch.rule:support-group", byId.get("seed-support-group").path("matched_by").asText());
        assertEquals("support", byId.get("seed-slack-mentions").path("agent_id").asText());
        assertEquals("dispatch.rule:slack-mentions", byId.get("seed-slack-mentions").path("matched_by").asText());
        assertEquals("assistant", byId.get("unknown-agent-fallback").path("agent_id").asText());
        assertEquals("dispatch.rule:billing-account", byId.get("unknown-agent-fallback").path("matched_by").asText());
    }
}
