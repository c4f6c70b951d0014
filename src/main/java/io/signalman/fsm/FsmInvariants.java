package io.signalman.fsm;

import io.signalman.engine.Invariant;
import java.util.List;

/**
 * The FSM's invariants that one decision shows. That states are always ones the
 * machine defines is enforced where states enter: the bundle refuses transitions to undeclared
 * states, creation uses the declared initial state, and restore refuses unknown states (422).
 */
public final class FsmInvariants {

    public static final Invariant<FsmStep, FsmOutcome> MOVES_START_FROM_THE_CURRENT_STATE = Invariant.of(
            "a move starts from the state the instance was in", (s, o) ->
                    o instanceof FsmOutcome.Moved m && !m.from().equals(s.stateBefore().currentState())
                            ? "moved from " + m.from() + " but the instance was in " + s.stateBefore().currentState() : null);

    public static final Invariant<FsmStep, FsmOutcome> REFUSALS_NAME_THE_CURRENT_STATE = Invariant.of(
            "a refused action leaves the state as it was", (s, o) ->
                    !(o instanceof FsmOutcome.Moved) && !o.currentState().equals(s.stateBefore().currentState())
                            ? "refusal reports state " + o.currentState() + " for an instance in " + s.stateBefore().currentState() : null);

    public static final Invariant<FsmStep, FsmOutcome> DETERMINISTIC = Invariant.deterministic(
            "the same action in the same state always gets the same decision");

    public static final List<Invariant<FsmStep, FsmOutcome>> ALL = List.of(MOVES_START_FROM_THE_CURRENT_STATE,
            REFUSALS_NAME_THE_CURRENT_STATE, DETERMINISTIC);

    private FsmInvariants() {
    }
}
