package io.signalman.fsm;

import io.signalman.engine.RuleInfo;

/**
 * One row of a machine's transition table, read from a transition rule: from a state, on an
 * action, to a state; {@code guarded} when the rule has conditions beyond state and action.
 */
public record Transition(String machine, String from, String action, String to, boolean guarded, RuleInfo rule) {
}
