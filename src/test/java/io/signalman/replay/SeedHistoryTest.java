package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each pack's seed history (a frozen copy of the shipped replay-fixtures, see {@link TestBundles})
 * against the seed rules: it replays unchanged (from each record's state_before, for the packs
 * with state), and it exercises every seed rule of its pack. What each history must hold besides
 * is its pack's own fixtures test.
 */
class SeedHistoryTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"broker", "dispatch", "handoff", "fsm", "signals"})
    void replayingAPacksHistoryAgainstTheSeedRulesChangesNothing(String pack) throws Exception {
        ReplayReport report = replay(pack);

        assertTrue(report.passed(), report::toText);
        assertEquals(report.records(), report.unchanged());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"broker", "dispatch", "handoff", "fsm", "signals"})
    void everySeedRuleOfAPackIsExercisedByItsHistory(String pack) throws Exception {
        assertEquals(List.of(), replay(pack).neverFired().getOrDefault(pack, List.of()),
                "seed rules no seed record exercises: the frozen seed history must cover the seed rules");
    }

    private static ReplayReport replay(String pack) throws Exception {
        return new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(TestBundles.FIXTURES.resolve(pack))));
    }
}
