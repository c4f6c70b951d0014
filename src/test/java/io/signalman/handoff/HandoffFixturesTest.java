package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.replay.Archive;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The seed bundle's handoff history (a frozen copy of the shipped replay-fixtures/handoff, see
 * {@link TestBundles}) holds every kind of next step and every match level (that it replays
 * unchanged from each record's state_before and exercises every seed handoff rule is
 * {@link io.signalman.replay.SeedHistoryTest}'s).
 */
class HandoffFixturesTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("handoff");

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
