package io.signalman.broker;

import io.signalman.engine.Collector;
import io.signalman.rulelang.RuleVocabulary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The broker's {@code decide} global. Deciding rules call it once, as one chained statement:
 * {@code decide.primary("vp-trading").fanOut("cfo", "mission-control");}. Additive rules may add
 * fan-out recipients and flags; nothing here removes or replaces a recipient.
 *
 * <p>Mutable and reused by one session (see {@link Collector}); {@link #toDecision()} copies it.
 */
@RuleVocabulary
public final class Route implements Collector {

    private final List<String> primary = new ArrayList<>(4);
    private final List<String> fanOut = new ArrayList<>(4);
    private boolean store;
    private String priority;
    private boolean converted;

    @Override
    public void reset() {
        primary.clear();
        fanOut.clear();
        store = false;
        priority = null;
        converted = false;
    }

    public Route primary(String... agents) {
        primary.addAll(Arrays.asList(agents));
        return this;
    }

    public Route primary(List<String> agents) {
        primary.addAll(agents);
        return this;
    }

    public Route fanOut(String... agents) {
        fanOut.addAll(Arrays.asList(agents));
        return this;
    }

    /** Keep the message in the semantic memory layer. */
    public Route store() {
        store = true;
        return this;
    }

    /** Override the message's priority: "high" or "low". */
    public Route priority(String override) {
        if (!"high".equals(override) && !"low".equals(override)) {
            throw new IllegalArgumentException("priority override must be \"high\" or \"low\", not \"" + override + "\"");
        }
        priority = override;
        return this;
    }

    /** The message was outside its sender's authority and is routed as an escalation. */
    public Route convertedToEscalation() {
        converted = true;
        return this;
    }

    RouteDecision toDecision() {
        return RouteDecision.of(primary, fanOut, store, priority, converted);
    }
}
