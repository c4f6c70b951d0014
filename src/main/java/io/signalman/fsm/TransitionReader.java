package io.signalman.fsm;

import io.signalman.engine.BundleError;
import io.signalman.engine.ParsedRule;
import io.signalman.rulelang.Condition;
import io.signalman.rulelang.DecideCall;
import io.signalman.rulelang.PatternReading;
import io.signalman.rulelang.Test;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the transition table out of transition rules. A transition rule names its machine and
 * from-state on the {@code Instance} pattern, its action on the {@code Action} pattern, and its
 * target in one {@code decide.to("...")}; any other condition is a guard. Rules that do not say
 * all of that, or name undeclared machines or states, are errors at their line.
 */
final class TransitionReader {

    private final Map<String, Machine> machines;
    private final List<Transition> transitions = new ArrayList<>();
    private final List<BundleError> errors = new ArrayList<>();

    TransitionReader(Map<String, Machine> machines) {
        this.machines = machines;
    }

    List<Transition> transitions() {
        return transitions;
    }

    List<BundleError> errors() {
        return errors;
    }

    /** "machine|from|action" of a transition rule, or null when the rule does not say all three. */
    static String key(ParsedRule rule) {
        TransitionReader r = new TransitionReader(Map.of());
        String[] found = r.scan(rule, new ArrayList<>());
        return found[0] == null || found[1] == null || found[2] == null ? null : found[0] + "|" + found[1] + "|" + found[2];
    }

    /** Machine, from-state and action; every other condition, as written, goes to {@code guards}. */
    private String[] scan(ParsedRule rule, List<String> guards) {
        String machine = null;
        String from = null;
        String action = null;
        for (PatternReading p : rule.reading().patterns()) {
            if (!p.positive()) {
                guards.add(p.type() + "(...) under not, exists or or");
                continue;
            }
            for (Condition c : p.conditions()) {
                List<Test> tests = c.tests();
                Test t = tests.size() == 1 && tests.get(0).operator().equals("==") && tests.get(0).value() instanceof String
                        ? tests.get(0) : null;
                String field = t == null ? null : t.field();
                if ("Instance".equals(p.type()) && "machine".equals(field)) {
                    machine = (String) t.value();
                } else if ("Instance".equals(p.type()) && "state".equals(field)) {
                    from = (String) t.value();
                } else if ("Action".equals(p.type()) && "name".equals(field)) {
                    action = (String) t.value();
                } else {
                    guards.add(c.text().strip());
                }
            }
        }
        if (rule.reading().opaque() && guards.isEmpty()) {
            guards.add("a condition beyond patterns (an eval or similar; see the rule)");
        }
        return new String[] {machine, from, action};
    }

    void read(ParsedRule rule) {
        List<String> guards = new ArrayList<>();
        String[] found = scan(rule, guards);
        String machine = found[0];
        String from = found[1];
        String action = found[2];
        List<DecideCall> to = rule.reading().calls("to");
        String target = to.isEmpty() ? null : to.get(0).text(0).orElse(null);
        if (to.size() > 1) {
            error(rule, "calls decide.to(...) twice; a transition rule has one target state");
            return;
        }
        if (machine == null || from == null || action == null || target == null) {
            error(rule, "a transition rule says Instance( machine == \"...\", state == \"...\" ), "
                    + "Action( name == \"...\" ) and decide.to(\"...\"); this one does not name its "
                    + (machine == null ? "machine" : from == null ? "from-state" : action == null ? "action" : "target state"));
            return;
        }
        Machine m = machines.get(machine);
        if (m == null) {
            error(rule, "names machine \"" + machine + "\", which fsm/machines.json does not declare; declared: "
                    + machines.keySet());
        } else if (!m.defines(from)) {
            error(rule, "starts from state \"" + from + "\", which machine " + machine + " does not declare; its states: " + m.states());
        } else if (!m.defines(target)) {
            error(rule, "goes to state \"" + target + "\", which machine " + machine + " does not declare; its states: "
                    + m.states());
        } else {
            transitions.add(new Transition(machine, from, action, target, guards, rule.info()));
        }
    }

    private void error(ParsedRule rule, String message) {
        errors.add(new BundleError(rule.info().file(), rule.info().line(), rule.info().column(),
                "transition rule \"" + rule.info().name() + "\" " + message));
    }
}
