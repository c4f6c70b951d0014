package io.signalman.broker;

import io.signalman.engine.Invariant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The broker's invariants, shared by properties, archive properties and the replay gate. */
public final class BrokerInvariants {

    public static final Invariant<BrokerMessage, RouteDecision> EXHAUSTIVE = Invariant.of(
            "every message has at least one primary recipient",
            (m, d) -> d.primaryRecipients().isEmpty() ? "no primary recipient" : null);

    public static final Invariant<BrokerMessage, RouteDecision> CRITICAL_REACHES_THE_TOP = Invariant.of(
            "critical messages always reach openclaw and knox",
            (m, d) -> "critical".equals(m.envelope().priority())
                    && !d.primaryRecipients().containsAll(List.of("openclaw", "knox"))
                    ? "critical message routed to " + d.primaryRecipients() : null);

    /**
     * SPEC says "memory.committed never fans out"; critical messages and escalations (including
     * those converted for lack of authority) are routed before subtypes are looked at, with their
     * own fan-out, so the invariant holds for the memory commits that subtype routing decides.
     */
    public static final Invariant<BrokerMessage, RouteDecision> MEMORY_COMMITS_DO_NOT_FAN_OUT = Invariant.of(
            "memory commits routed by subtype never fan out",
            (m, d) -> "memory.committed".equals(m.subtype()) && !"critical".equals(m.envelope().priority())
                    && !"escalation".equals(m.type()) && !d.convertedToEscalation() && !d.fanOut().isEmpty()
                    ? "memory.committed fanned out to " + d.fanOut() : null);

    public static final Invariant<BrokerMessage, RouteDecision> FAN_OUT_KEEPS_PRIMARIES = Invariant.of(
            "fan-out never repeats or removes a primary recipient",
            (m, d) -> {
                Set<String> primary = new HashSet<>(d.primaryRecipients());
                if (primary.size() != d.primaryRecipients().size()) {
                    return "primary recipients repeat: " + d.primaryRecipients();
                }
                Set<String> fan = new HashSet<>(d.fanOut());
                if (fan.size() != d.fanOut().size()) {
                    return "fan-out repeats: " + d.fanOut();
                }
                fan.retainAll(primary);
                return fan.isEmpty() ? null : "fan-out repeats primary recipients " + fan;
            });

    public static final Invariant<BrokerMessage, RouteDecision> DETERMINISTIC = Invariant.deterministic(
            "the same message always gets the same decision");

    public static final List<Invariant<BrokerMessage, RouteDecision>> ALL = List.of(EXHAUSTIVE, CRITICAL_REACHES_THE_TOP,
            MEMORY_COMMITS_DO_NOT_FAN_OUT, FAN_OUT_KEEPS_PRIMARIES, DETERMINISTIC);

    private BrokerInvariants() {
    }
}
