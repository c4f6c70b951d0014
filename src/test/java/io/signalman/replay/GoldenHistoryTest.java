package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.engine.CompiledPack;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The whole golden history (replay-fixtures/) against the shipped rules, as the reload gate will
 * run it: every recorded decision comes out again, every invariant holds on every record, and
 * every shipped rule of every pack is exercised by some record.
 */
class GoldenHistoryTest {

    private final ReplayReport report;

    GoldenHistoryTest() throws Exception {
        report = new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(TestBundles.FIXTURES)));
    }

    @Test
    void everyRecordedDecisionComesOutAgainAndNoInvariantBreaks() {
        assertTrue(report.passed(), report::toText);
        assertEquals(report.records(), report.unchanged());
    }

    @Test
    void everyShippedRuleOfEveryPackIsExercised() {
        assertEquals(Map.of(), report.neverFired(), "rules no fixture exercises; record a decision for each (make fixtures)");
    }

    @Test
    void everyShippedPackHasAGoldenHistory() {
        for (CompiledPack pack : TestBundles.shipped().packs().values()) {
            assertTrue(Files.isDirectory(TestBundles.FIXTURES.resolve(pack.name())), "no replay-fixtures/" + pack.name());
        }
    }
}
