package io.signalman.handoff;

import io.signalman.engine.Invariant;
import java.util.List;
import java.util.Optional;

/** The handoff pack's invariants, shared by properties, fixture replay and the gate. */
public final class HandoffInvariants {

    public static final Invariant<TurnInput, HandoffOutcome> COUNT_WITHIN_LIMIT = Invariant.of(
            "handoff_count never exceeds max_handoffs",
            (in, o) -> o.handoffCount() > o.maxHandoffs() || o.stateAfter().handoffCount() != o.handoffCount()
                    ? "handoff_count " + o.handoffCount() + " with max_handoffs " + o.maxHandoffs() : null);

    /**
     * Judged from the termination signals as written in the DRL and the matcher, not from which
     * rule fired, so a routing rule that outranks a termination rule is caught.
     */
    public static final Invariant<TurnInput, HandoffOutcome> TERMINATION_WINS = Invariant.of(
            "termination wins over routing in one response",
            (in, o) -> {
                if (in.toolCalls() > 0) {
                    return null;
                }
                Optional<String> said = o.terminationSignals().stream()
                        .filter(sig -> SignalMatcher.match(sig, in.response()) != null).findFirst();
                return said.isPresent() && o.next().type() != NextStep.Type.TERMINATE
                        ? "the response says " + said.get() + " but the next step is " + o.next().type() : null;
            });

    public static final Invariant<TurnInput, HandoffOutcome> LIMIT_ENDS = Invariant.of(
            "reaching max_handoffs ends the conversation",
            (in, o) -> o.handoffCount() == o.maxHandoffs() && o.handoffCount() > in.state().handoffCount()
                    && !(o.next().type() == NextStep.Type.END && o.next().limitReached())
                    ? "the count reached " + o.maxHandoffs() + " but the next step is " + o.next().type() : null);

    public static final Invariant<TurnInput, HandoffOutcome> DETERMINISTIC = Invariant.deterministic(
            "the same turn from the same state always gets the same step");

    public static final List<Invariant<TurnInput, HandoffOutcome>> ALL = List.of(COUNT_WITHIN_LIMIT, TERMINATION_WINS,
            LIMIT_ENDS, DETERMINISTIC);

    private HandoffInvariants() {
    }
}
