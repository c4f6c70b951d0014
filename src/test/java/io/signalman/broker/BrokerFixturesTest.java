package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The seed bundle's broker history (a frozen copy of the shipped replay-fixtures/broker, see
 * {@link TestBundles}): every recorded decision is what the seed's hand-written router decides (that
 * it replays unchanged against the seed rules and exercises every seed rule is
 * {@link io.signalman.replay.SeedHistoryTest}'s). So the engine is proven to reproduce the seed,
 * while the live rules/ stay the analysts' to change.
 */
class BrokerFixturesTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("broker");

    @Test
    void theHistoryHoldsAtLeastThreeHundredRecords() throws Exception {
        assertTrue(Archive.read(List.of(HISTORY)).records() >= 300);
    }

    @Test
    void everyRecordedDecisionIsTheSeedsDecision() throws Exception {
        RuleBundle shipped = TestBundles.shipped();
        List<String> mismatches = new ArrayList<>();
        for (Archive.ArchiveFile file : Archive.read(List.of(HISTORY)).files()) {
            OrgChart org = shipped.withReference(file.reference()).requirePack("broker").reference().as(OrgChart.class);
            ReferenceRouter seed = new ReferenceRouter(org);
            for (Archive.Entry e : file.entries()) {
                RouteDecision expected = seed.route(Packs.BROKER.parseInput(e.record().input()));
                JsonNode recorded = e.record().decision();
                JsonNode want = Packs.BROKER.outcomeJson(expected);
                want.fieldNames().forEachRemaining(f -> {
                    if (!want.get(f).equals(recorded.get(f))) {
                        mismatches.add(file.path() + ":" + e.line() + " " + f + " recorded " + recorded.get(f) + ", seed " + want.get(f));
                    }
                });
            }
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void theHistoryCoversTheEdgeCasesByName() throws Exception {
        Set<String> ids = Archive.read(List.of(HISTORY)).files().stream().flatMap(f -> f.entries().stream())
                .map(e -> e.record().input().path("id").asText()).collect(Collectors.toSet());
        for (String id : List.of("crit-trade", "crit-trade-unauthorized", "trade-report", "report-pnl", "report-tool",
                "default-unknown", "report-unknown", "service-offline", "auth-trade-from-tooling", "auth-signal-from-trader",
                "fallback-signal", "memory-committed")) {
            assertTrue(ids.contains(id), "no fixture named " + id);
        }
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
