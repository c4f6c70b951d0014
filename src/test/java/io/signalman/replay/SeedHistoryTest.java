package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.signalman.TestBundles;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each pack's seed history (a frozen copy of the shipped replay-fixtures, see {@link TestBundles})
 * against the seed rules: it replays unchanged (from each record's state_before, for the packs
 * with state), and it exercises every seed rule of its pack; the broker's and dispatch's hold enough
 * records and their edge cases by name. What each history must hold besides is its pack's own
 * fixtures test.
 */
class SeedHistoryTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"broker", "dispatch", "handoff", "fsm", "signals"})
    void replayingAPacksHistoryAgainstTheSeedRulesChangesNothing(String pack) throws Exception {
        ReplayReport report = replay(pack);

        assertTrue(report.passed(), report::toText);
        assertEquals(report.counts().records(), report.counts().unchanged());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"broker", "dispatch", "handoff", "fsm", "signals"})
    void everySeedRuleOfAPackIsExercisedByItsHistory(String pack) throws Exception {
        assertEquals(List.of(), replay(pack).neverFired().getOrDefault(pack, List.of()),
                "seed rules no seed record exercises: the frozen seed history must cover the seed rules");
    }

    /** What the broker's and dispatch's histories hold at least: so many records, and the edge cases by the ids of their records. */
    private static final List<Arguments> HOLDS = List.of(
            arguments("broker", 300, List.of("crit-trade", "crit-trade-unauthorized", "trade-report", "report-pnl", "report-tool",
                    "default-unknown", "report-unknown", "service-offline", "auth-trade-from-tooling", "auth-signal-from-trader",
                    "fallback-signal", "memory-committed")),
            arguments("dispatch", 200, List.of("seed-support-group", "seed-slack-mentions", "vip-telegram", "vip-slack",
                    "forum-release-topic", "community-guild", "unknown-agent-fallback", "cjk-long", "code-block",
                    "attachment-data-uri", "support-group-shouting", "at-threshold", "everything-capped")));

    @ParameterizedTest(name = "{0}")
    @FieldSource("HOLDS")
    void aPacksHistoryHoldsEnoughRecordsAndTheEdgeCasesByName(String pack, int records, List<String> ids) throws Exception {
        Archive history = Archive.read(List.of(TestBundles.FIXTURES.resolve(pack)));
        assertTrue(history.records() >= records, pack + ": " + history.records() + " records");
        Set<String> recorded = history.files().stream().flatMap(f -> f.entries().stream())
                .map(e -> e.record().input().path("id").asText()).collect(Collectors.toSet());
        for (String id : ids) {
            assertTrue(recorded.contains(id), "no fixture named " + id);
        }
    }

    private static ReplayReport replay(String pack) throws Exception {
        return new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(TestBundles.FIXTURES.resolve(pack))));
    }
}
