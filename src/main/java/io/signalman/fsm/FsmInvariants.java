package io.signalman.fsm;

import io.signalman.engine.Decision;
import io.signalman.engine.Invariant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The FSM's invariants (SPEC 4.3) that one decision shows. That states are always ones the
 * machine defines is enforced where states enter: the bundle refuses transitions to undeclared
 * states, creation uses the declared initial state, and restore refuses unknown states (422).
 */
public final class FsmInvariants {

    public static final Invariant<FsmStep, FsmOutcome> MOVES_START_FROM_THE_CURRENT_STATE = simple(
            "a move starts from the state the instance was in", (s, o) ->
                    o instanceof FsmOutcome.Moved m && !m.from().equals(s.stateBefore().currentState())
                            ? "moved from " + m.from() + " but the instance was in " + s.stateBefore().currentState() : null);

    public static final Invariant<FsmStep, FsmOutcome> REFUSALS_NAME_THE_CURRENT_STATE = simple(
            "a refused action leaves the state as it was", (s, o) ->
                    !(o instanceof FsmOutcome.Moved) && !o.currentState().equals(s.stateBefore().currentState())
                            ? "refusal reports state " + o.currentState() + " for an instance in " + s.stateBefore().currentState() : null);

    public static final Invariant<FsmStep, FsmOutcome> DETERMINISTIC = new Invariant<>() {
        @Override
        public String name() {
            return "the same action in the same state always gets the same decision";
        }

        @Override
        public Optional<String> check(FsmStep s, Decision<FsmOutcome> d, Function<FsmStep, Decision<FsmOutcome>> again) {
            Decision<FsmOutcome> other = again.apply(s);
            return other.outcome().equals(d.outcome()) && Objects.equals(other.decidedBy(), d.decidedBy())
                    ? Optional.empty() : Optional.of("decided " + d.outcome() + " then " + other.outcome());
        }
    };

    public static final List<Invariant<FsmStep, FsmOutcome>> ALL = List.of(MOVES_START_FROM_THE_CURRENT_STATE,
            REFUSALS_NAME_THE_CURRENT_STATE, DETERMINISTIC);

    private FsmInvariants() {
    }

    private static Invariant<FsmStep, FsmOutcome> simple(String name, java.util.function.BiFunction<FsmStep, FsmOutcome, String> v) {
        return new Invariant<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Optional<String> check(FsmStep s, Decision<FsmOutcome> d, Function<FsmStep, Decision<FsmOutcome>> again) {
                return Optional.ofNullable(v.apply(s, d.outcome()));
            }
        };
    }
}
