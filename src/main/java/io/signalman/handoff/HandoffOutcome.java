package io.signalman.handoff;

import java.util.List;

/**
 * One turn's result: the next step, the signal that decided it (and how it was found), the count
 * after the turn, and the state the conversation moves to.
 *
 * @param terminationSignals the agent's termination signals as written in the DRL; not part of the
 *                           response, kept so the invariants can judge the rules independently
 */
public record HandoffOutcome(NextStep next, String signal, SignalMatcher.Level matchLevel, int handoffCount,
                             int maxHandoffs, ConversationState stateAfter, List<String> terminationSignals) {

    public HandoffOutcome {
        terminationSignals = List.copyOf(terminationSignals);
    }
}
