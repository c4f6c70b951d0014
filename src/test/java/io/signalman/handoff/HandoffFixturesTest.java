package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.Replayer;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The seed bundle's handoff history (a frozen copy of the shipped replay-fixtures/handoff, see
 * {@link TestBundles}): it replays unchanged from each record's state_before against the seed
 * rules, it exercises every seed handoff rule, and every kind of next step.
 */
class HandoffFixturesTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("handoff");

    private static ReplayReport replay() throws Exception {
        return new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(HISTORY)));
    }

    @Test
    void replayingTheHistoryFromItsRecordedStatesChangesNothing() throws Exception {
        ReplayReport report = replay();
        assertTrue(report.passed(), report::toText);
        assertEquals(report.records(), report.unchanged());
    }

    @Test
    void everyShippedHandoffRuleIsExercisedByTheHistory() throws Exception {
        assertEquals(List.of(), replay().neverFired().getOrDefault("handoff", List.of()),
                "seed rules no seed record exercises: the frozen seed history must cover the seed rules");
    }

    @Test
    void theHistoryHoldsEveryKindOfNextStepAndEveryMatchLevel() throws Exception {
        var records = Archive.read(List.of(HISTORY)).files().stream().flatMap(f -> f.entries().stream())
                .map(e -> e.record().decision()).toList();
        Set<String> types = records.stream().map(d -> d.at("/next/type").asText()).collect(Collectors.toSet());
        assertEquals(Set.of("rerun", "agent", "parallel", "terminate", "pause", "end"), types);
        assertTrue(records.stream().anyMatch(d -> d.at("/next/limit_reached").asBoolean()), "no record reaches the limit");
        Set<String> levels = records.stream().map(d -> d.path("match_level").asText()).collect(Collectors.toSet());
        assertTrue(levels.containsAll(Set.of("exact", "case_insensitive", "normalized")), levels.toString());
    }
}
