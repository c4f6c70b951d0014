package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import io.signalman.replay.Archive;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The seed bundle's dispatch history (a frozen copy of the shipped replay-fixtures/dispatch, see
 * {@link TestBundles}): every recorded decision is what the hand-written seed dispatcher decides
 * (that it replays unchanged against the seed rules and fires every seed dispatch and scoring rule
 * is {@link io.signalman.replay.SeedHistoryTest}'s).
 */
class DispatchFixturesTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("dispatch");

    @Test
    void theHistoryHoldsAtLeastTwoHundredRecords() throws Exception {
        assertTrue(Archive.read(List.of(HISTORY)).records() >= 200);
    }

    @Test
    void everyRecordedDecisionIsTheSeedsDecision() throws Exception {
        RuleBundle shipped = TestBundles.shipped();
        List<String> mismatches = new ArrayList<>();
        for (Archive.ArchiveFile file : Archive.read(List.of(HISTORY)).files()) {
            DispatchReference ref = shipped.withReference(file.reference()).requirePack("dispatch").reference()
                    .as(DispatchReference.class);
            SeedDispatcher seed = SeedDispatcher.of(ref);
            for (Archive.Entry e : file.entries()) {
                SeedDispatcher.Expected want = seed.dispatch(Packs.DISPATCH.parseInput(e.record().input()));
                JsonNode got = e.record().decision();
                Map<String, Object> fields = Map.of(
                        "agent_id", want.agent(), "channel", want.channel(), "account_id", want.account(),
                        "matched_by", want.matchedBy(), "session_key", want.sessionKey());
                fields.forEach((f, v) -> {
                    if (!v.equals(got.path(f).asText())) {
                        mismatches.add(file.path() + ":" + e.line() + " " + f + " recorded " + got.get(f) + ", seed " + v);
                    }
                });
                List<String> dims = new ArrayList<>();
                got.path("session_policy").path("dimensions").forEach(n -> dims.add(n.asText()));
                JsonNode model = got.path("model");
                if (!dims.equals(want.dimensions()) || !model.path("name").asText().equals(want.model())
                        || model.path("light").asBoolean() != want.light()
                        || Math.abs(model.path("score").asDouble() - want.score()) > 1e-9) {
                    mismatches.add(file.path() + ":" + e.line() + " recorded " + dims + " " + model + ", seed " + want);
                }
            }
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void theHistoryCoversTheSeedsExamplesAndEdgeCasesByName() throws Exception {
        Set<String> ids = Archive.read(List.of(HISTORY)).files().stream().flatMap(f -> f.entries().stream())
                .map(e -> e.record().input().path("id").asText()).collect(Collectors.toSet());
        for (String id : List.of("seed-support-group", "seed-slack-mentions", "vip-telegram", "vip-slack", "forum-release-topic",
                "community-guild", "unknown-agent-fallback", "cjk-long", "code-block", "attachment-data-uri",
                "support-group-shouting", "at-threshold", "everything-capped")) {
            assertTrue(ids.contains(id), "no fixture named " + id);
        }
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
