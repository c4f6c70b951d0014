package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.engine.CompiledPack;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The analysts' own bundle (rules/ and replay-fixtures/, whatever they hold now), as the reload
 * gate will run it: every recorded decision comes out again, every invariant holds on every
 * record, every scenario passes, and every rule is exercised by the history or a scenario. These
 * are the only Java tests that read the live bundle, and none pins a business decision: an
 * intended change recorded with {@code signalman replay --accept} passes them.
 */
class GoldenHistoryTest {

    private static final BundleChecks LIVE = BundleChecks.run(TestBundles.live(), TestBundles.LIVE_FIXTURES);

    @Test
    void everyRecordedDecisionComesOutAgainAndNoInvariantBreaks() {
        assertTrue(LIVE.historyPasses(), () -> LIVE.why(TestBundles.LIVE_RULES));
    }

    @Test
    void everyScenarioBesideTheRulesPasses() {
        assertTrue(LIVE.scenarios().passed(), () -> LIVE.why(TestBundles.LIVE_RULES));
    }

    @Test
    void everyRuleOfEveryPackIsExercisedByTheHistoryOrAScenario() {
        assertEquals(Map.of(), LIVE.uncovered(), () -> LIVE.why(TestBundles.LIVE_RULES));
    }

    @Test
    void everyPackHasAGoldenHistoryAndScenarios() {
        for (CompiledPack pack : TestBundles.live().packs().values()) {
            assertTrue(Files.isDirectory(TestBundles.LIVE_FIXTURES.resolve(pack.name())), "no replay-fixtures/" + pack.name());
            assertTrue(Files.isDirectory(TestBundles.LIVE_RULES.resolve(pack.name()).resolve("scenarios")),
                    "no rules/" + pack.name() + "/scenarios: add scenarios for its rules (see rules/README.md)");
        }
    }
}
