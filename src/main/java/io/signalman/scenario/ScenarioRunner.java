package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.packs.Packs;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.InputException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs scenarios against a compiled bundle through each pack's own {@code parseRecord} and
 * {@code decide}, the calls replay makes for a recorded decision: a scenario is a replay record
 * an analyst wrote, with only the fields that matter. Blocking: call from a worker thread.
 */
public final class ScenarioRunner {

    private ScenarioRunner() {
    }

    /** Every scenario among the bundle's own files, run against that bundle. */
    public static ScenarioReport run(RuleBundle bundle) {
        return run(bundle, ScenarioFiles.read(bundle.files()));
    }

    /** The given scenarios (say, a draft's) run against {@code bundle}. */
    public static ScenarioReport run(RuleBundle bundle, ScenarioFiles.Suite suite) {
        List<ScenarioResult> results = new ArrayList<>();
        for (Scenario s : suite.scenarios()) {
            results.add(run(bundle, s));
        }
        return new ScenarioReport(results, suite.errors());
    }

    public static ScenarioResult run(RuleBundle bundle, Scenario s) {
        DecisionPack<?, ?> pack = Packs.named(s.pack()).orElse(null);
        if (pack == null || bundle.pack(s.pack()).isEmpty()) {
            return failed(s, "the bundle has no pack \"" + s.pack() + "\"; its packs are " + bundle.packs().keySet());
        }
        try {
            return runTyped(pack, bundle, s);
        } catch (InputException e) {
            String field = e.field().isEmpty() ? "" : " (" + e.field() + ")";
            String where = e.field().startsWith("state_before") ? "state_before" : "input";
            return failed(s, "its " + where + " is not valid for the " + s.pack() + " pack" + field + ": " + e.getMessage());
        } catch (io.signalman.engine.EvaluationTooCostlyException e) {
            return failed(s, ScenarioResult.STOPPED + e.getMessage());
        } catch (RuntimeException e) {
            return failed(s, "the rules failed on it: " + e);
        }
    }

    private static <I, D> ScenarioResult runTyped(DecisionPack<I, D> pack, RuleBundle bundle, Scenario s)
            throws InputException {
        I input = pack.parseRecord(s.input(), s.stateBefore());
        Decision<D> d = pack.decide(bundle, input, true);
        JsonNode decision = d.recordJson(pack.outcomeJson(d.outcome()));
        List<String> fired = d.evaluation().fired().stream().map(RuleInfo::name).toList();
        return new ScenarioResult(s, decision, Expectation.compare(s.expect(), decision), null, explanation(d), fired);
    }

    /** The decision's explanation as {@code signalman explain} words it, one line per rule. */
    static List<String> explanation(Decision<?> d) {
        List<String> lines = new ArrayList<>();
        RuleInfo by = d.decidedBy();
        lines.add(by == null ? "no rule decided" : "decided by \"" + by.name() + "\" (" + by.file() + ":" + by.line() + "): "
                + by.reason());
        if (d.evaluation().explain() != null) {
            for (Evaluation.Considered c : d.evaluation().explain()) {
                RuleInfo r = c.rule();
                lines.add(String.format("%-22s \"%s\" (%s:%d): %s", c.status().wire(), r.name(), r.file(), r.line(),
                        Decision.why(c, by)));
            }
        }
        return lines;
    }

    private static ScenarioResult failed(Scenario s, String error) {
        return new ScenarioResult(s, null, List.of(), error, List.of(), List.of());
    }
}
