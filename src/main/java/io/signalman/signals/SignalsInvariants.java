package io.signalman.signals;

import io.signalman.engine.Invariant;
import java.util.List;

/**
 * The signals pack's invariants that one decision shows. Tier precedence for any
 * saliences, and that a lower-tier route never changes a higher tier's decision, are properties
 * over generated rule sets ({@code SignalTierProperties}).
 */
public final class SignalsInvariants {

    public static final Invariant<SignalStep, SignalDecision> UNROUTED_MEANS_NO_ACTION = Invariant.of(
            "a signal is unrouted exactly when it has no action and no tier",
            (s, o) -> (o.unrouted() ? o.action() == null && o.tier() == null : o.action() != null && o.tier() != null)
                    ? null : "inconsistent decision " + o);

    public static final Invariant<SignalStep, SignalDecision> DETERMINISTIC = Invariant.deterministic(
            "the same signal in the same FSM state always gets the same decision");

    public static final List<Invariant<SignalStep, SignalDecision>> ALL = List.of(UNROUTED_MEANS_NO_ACTION, DETERMINISTIC);

    private SignalsInvariants() {
    }
}
