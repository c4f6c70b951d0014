package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.engine.CompiledPack;
import io.signalman.scenario.Coverage;
import io.signalman.scenario.ScenarioReport;
import io.signalman.scenario.ScenarioRunner;
import java.nio.file.Files;
import java.util.List;
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

    private static final String ACCEPT = "if the change is intended, run bin/signalman replay --accept replay-fixtures"
            + " and review the diff of replay-fixtures/ before committing it; otherwise fix the rules";

    private final ReplayReport report;

    GoldenHistoryTest() throws Exception {
        report = new Replayer(TestBundles.live(), null, null).replay(Archive.read(List.of(TestBundles.LIVE_FIXTURES)));
    }

    @Test
    void everyRecordedDecisionComesOutAgainAndNoInvariantBreaks() {
        assertTrue(report.passed(), () -> report.toText() + "\n" + ACCEPT);
        assertEquals(report.records(), report.unchanged(), ACCEPT);
    }

    @Test
    void everyScenarioBesideTheRulesPasses() {
        ScenarioReport scenarios = ScenarioRunner.run(TestBundles.live());
        assertTrue(scenarios.passed(), () -> scenarios.toText(TestBundles.LIVE_RULES)
                + "\na scenario states what the rules must decide: fix the rules, or the scenario if the rule change is meant");
    }

    @Test
    void everyRuleOfEveryPackIsExercisedByTheHistoryOrAScenario() {
        Map<String, List<String>> uncovered = Coverage.uncovered(report.neverFired(), ScenarioRunner.run(TestBundles.live()));
        assertEquals(Map.of(), uncovered, () -> Coverage.advice(uncovered));
    }

    @Test
    void everyPackHasAGoldenHistoryAndScenarios() {
        for (CompiledPack pack : TestBundles.live().packs().values()) {
            assertTrue(Files.isDirectory(TestBundles.LIVE_FIXTURES.resolve(pack.name())), "no replay-fixtures/" + pack.name());
            assertTrue(Files.isDirectory(TestBundles.LIVE_RULES.resolve(pack.name()).resolve("scenarios")),
                    "no rules/" + pack.name() + "/scenarios");
        }
    }
}
