package io.signalman.signals;

import io.signalman.engine.Decision;
import io.signalman.engine.Invariant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The signals pack's invariants (SPEC 4.2) that one decision shows. Tier precedence for any
 * saliences, and that a lower-tier route never changes a higher tier's decision, are properties
 * over generated rule sets ({@code SignalTierProperties}).
 */
public final class SignalsInvariants {

    public static final Invariant<SignalStep, SignalDecision> UNROUTED_MEANS_NO_ACTION = new Invariant<>() {
        @Override
        public String name() {
            return "a signal is unrouted exactly when it has no action and no tier";
        }

        @Override
        public Optional<String> check(SignalStep s, Decision<SignalDecision> d, Function<SignalStep, Decision<SignalDecision>> a) {
            SignalDecision o = d.outcome();
            boolean consistent = o.unrouted() ? o.actionType() == null && o.tier() == null
                    : o.actionType() != null && SignalsPack.TIERS.contains(o.tier());
            return consistent ? Optional.empty() : Optional.of("inconsistent decision " + o);
        }
    };

    public static final Invariant<SignalStep, SignalDecision> DETERMINISTIC = new Invariant<>() {
        @Override
        public String name() {
            return "the same signal in the same FSM state always gets the same decision";
        }

        @Override
        public Optional<String> check(SignalStep s, Decision<SignalDecision> d, Function<SignalStep, Decision<SignalDecision>> again) {
            Decision<SignalDecision> other = again.apply(s);
            return other.outcome().equals(d.outcome()) && Objects.equals(other.decidedBy(), d.decidedBy())
                    ? Optional.empty() : Optional.of("decided " + d.outcome() + " then " + other.outcome());
        }
    };

    public static final List<Invariant<SignalStep, SignalDecision>> ALL = List.of(UNROUTED_MEANS_NO_ACTION, DETERMINISTIC);

    private SignalsInvariants() {
    }
}
