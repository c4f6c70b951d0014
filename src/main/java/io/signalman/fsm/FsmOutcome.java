package io.signalman.fsm;

import java.util.List;

/**
 * What applying an action decided: a move, or one of the two refusals an action can get (invalid transition, guard rejected). Refusals
 * are decisions too (logged, replayed), and never change the state.
 */
public sealed interface FsmOutcome {

    String currentState();

    /** The action moved the instance from one state to another. */
    record Moved(String machine, String from, String to) implements FsmOutcome {
        @Override
        public String currentState() {
            return from;
        }
    }

    /** No rule exists for (current state, action). */
    record InvalidTransition(String currentState, String action, List<String> validActions) implements FsmOutcome {
    }

    /** Rules exist for (current state, action), and every guard failed. */
    record GuardRejected(String currentState, String action, List<String> guards) implements FsmOutcome {
    }
}
