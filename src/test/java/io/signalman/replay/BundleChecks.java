package io.signalman.replay;

import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import io.signalman.scenario.Coverage;
import io.signalman.scenario.ScenarioReport;
import io.signalman.scenario.ScenarioRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The checks {@code make test} runs on an analysts' bundle and its golden history, and nothing
 * else: the history replays unchanged with every invariant holding, every scenario passes, and
 * every rule is exercised by the history or a scenario. {@link GoldenHistoryTest} runs them on the
 * live rules/, {@link AnalystLoopTest} on an edited copy.
 */
record BundleChecks(RuleBundle bundle, ReplayReport history, ScenarioReport scenarios, Map<String, List<String>> uncovered) {

    static final String ACCEPT = "if the change is intended, run bin/signalman replay --accept replay-fixtures"
            + " and review the diff of replay-fixtures/ before committing it; otherwise fix the rules";

    static BundleChecks run(Path rules, Path fixtures) {
        return run(TestBundles.compile(rules), fixtures);
    }

    static BundleChecks run(RuleBundle bundle, Path fixtures) {
        ReplayReport history;
        try {
            history = new Replayer(bundle, null, null).replay(Archive.read(List.of(fixtures)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ScenarioReport scenarios = ScenarioRunner.run(bundle);
        return new BundleChecks(bundle, history, scenarios, Coverage.uncovered(history.neverFired(), scenarios));
    }

    boolean historyPasses() {
        return history.passed() && history.counts().records() == history.counts().unchanged();
    }

    boolean passed() {
        return historyPasses() && scenarios.passed() && uncovered.isEmpty();
    }

    /** Why the checks failed, in the words {@code make test} prints. */
    String why(Path rules) {
        StringBuilder out = new StringBuilder();
        if (!historyPasses()) {
            out.append(history.toText()).append('\n').append(ACCEPT).append('\n');
        }
        if (!scenarios.passed()) {
            out.append(scenarios.toText(rules)).append("a scenario states what the rules must decide:"
                    + " fix the rules, or the scenario if the rule change is meant\n");
        }
        if (!uncovered.isEmpty()) {
            out.append(Coverage.advice(uncovered)).append('\n');
        }
        return out.toString();
    }
}
