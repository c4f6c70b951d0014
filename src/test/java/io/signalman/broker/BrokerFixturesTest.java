package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import io.signalman.replay.RecordedHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seed bundle's broker history (a frozen copy of the shipped replay-fixtures/broker, see
 * {@link TestBundles}): every recorded decision is what the seed's hand-written router decides (that
 * it replays unchanged against the seed rules, exercises every seed rule and holds its edge cases is
 * {@link io.signalman.replay.SeedHistoryTest}'s). So the engine is proven to reproduce the seed,
 * while the live rules/ stay the analysts' to change.
 */
class BrokerFixturesTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("broker");

    @Test
    void everyRecordedDecisionIsTheSeedsDecision() throws Exception {
        RecordedHistory.assertEveryRecord(HISTORY, rules -> {
            ReferenceRouter seed = new ReferenceRouter(rules.requirePack("broker").reference().as(OrgChart.class));
            return e -> {
                JsonNode recorded = e.record().decision();
                JsonNode want = Packs.BROKER.outcomeJson(seed.route(Packs.BROKER.parseInput(e.record().input())));
                List<String> mismatches = new ArrayList<>();
                want.fieldNames().forEachRemaining(f -> {
                    if (!want.get(f).equals(recorded.get(f))) {
                        mismatches.add(f + " recorded " + recorded.get(f) + ", seed " + want.get(f));
                    }
                });
                return mismatches;
            };
        });
    }

    @Test
    void theRegistryWithoutTradersScenarioReallyHasNoTradingAgent() throws Exception {
        byte[] chart = Files.readAllBytes(HISTORY.resolve("registry-without-traders/reference/broker/org-chart.json"));
        assertEquals(List.of(), OrgChart.read("org-chart.json", chart).getTradingAgents());
        DecisionRecord fallback = Archive.read(List.of(HISTORY.resolve("registry-without-traders"))).files().get(0)
                .entries().get(0).record();
        assertEquals(Json.parse("[\"foresight\",\"sports-agent\",\"political-agent\",\"perpetuals-bot\"]"),
                fallback.decision().get("primary_recipients"));
    }
}
