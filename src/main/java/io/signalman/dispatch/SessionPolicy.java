package io.signalman.dispatch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which dimensions isolate a conversation, and the identity links that make one sender one
 * identity (seed 004). The dimensions come from the pack's config, or from the deciding rule when
 * it overrides them.
 */
public record SessionPolicy(List<String> dimensions, Map<String, List<String>> identityLinks) {

    /** The only dimensions that survive, in the order a session key lists them. */
    public static final List<String> DIMENSIONS = List.of("space", "chat", "topic", "sender");
    private static final Set<String> KNOWN = Set.copyOf(DIMENSIONS);

    public SessionPolicy {
        dimensions = List.copyOf(dimensions);
        // File order, so a decision renders the links as the analyst wrote them.
        identityLinks = Collections.unmodifiableMap(new LinkedHashMap<>(identityLinks));
    }

    /**
     * Trimmed and lower-cased; only {@code space}, {@code chat}, {@code topic} and {@code sender}
     * survive, the first of duplicates kept, order kept.
     */
    public static List<String> normalize(List<String> names) {
        List<String> out = new ArrayList<>(4);
        for (String n : names) {
            String d = GoText.fold(n);
            if (KNOWN.contains(d) && !out.contains(d)) {
                out.add(d);
            }
        }
        return List.copyOf(out);
    }
}
