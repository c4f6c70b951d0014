package io.signalman.broker;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a message goes. Recipients are de-duplicated, primary first, order stable: a
 * fan-out recipient that is already primary is dropped from the fan-out, never the other way.
 */
public record RouteDecision(List<String> primaryRecipients, List<String> fanOut, boolean storeInMemory,
                            String priorityOverride, boolean convertedToEscalation) {

    public RouteDecision {
        primaryRecipients = List.copyOf(primaryRecipients);
        fanOut = List.copyOf(fanOut);
    }

    static RouteDecision of(List<String> primary, List<String> fanOut, boolean store, String priority, boolean converted) {
        Set<String> seen = new LinkedHashSet<>(primary);
        List<String> p = new ArrayList<>(seen);
        List<String> f = new ArrayList<>();
        for (String agent : fanOut) {
            if (seen.add(agent)) {
                f.add(agent);
            }
        }
        return new RouteDecision(p, f, store, priority, converted);
    }
}
