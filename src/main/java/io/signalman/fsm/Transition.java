package io.signalman.fsm;

import io.signalman.engine.RuleInfo;
import java.util.List;

/**
 * One row of a machine's transition table, read from a transition rule: from a state, on an
 * action, to a state, with its guards: the rule's conditions beyond state and action, as written
 * ({@code number("quality") >= 0.7}); empty for an unguarded transition.
 */
public record Transition(String machine, String from, String action, String to, List<String> guards, RuleInfo rule) {

    public Transition {
        guards = List.copyOf(guards);
    }

    public boolean guarded() {
        return !guards.isEmpty();
    }

    /** The guards as one condition an analyst reads on an edge: {@code a && b}; null when unguarded. */
    public String guard() {
        return guards.isEmpty() ? null : String.join(" && ", guards);
    }
}
