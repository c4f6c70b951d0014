package io.signalman.dispatch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code identity_links}: canonical sender ids, each with the ids it is known by on each channel
 * ({@code "alice": ["telegram:555", "slack:u777"]}). Dispatch and session keys both resolve
 * senders through it, so a sender routed as one person also keeps one session.
 *
 * <p>The seed walks a Go map, whose order is random, so an id listed under two canonical names
 * resolved either way; here the first canonical name in file order wins, always (and the pack's
 * config refuses an id listed twice, so the order never matters for shipped data).
 */
public final class IdentityLinks {

    public static final IdentityLinks NONE = new IdentityLinks(Map.of());

    private final Map<String, List<String>> links;

    public IdentityLinks(Map<String, List<String>> links) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        links.forEach((canonical, ids) -> copy.put(canonical, List.copyOf(ids)));
        this.links = Collections.unmodifiableMap(copy);
    }

    /** The links as configured, in file order. */
    public Map<String, List<String>> asMap() {
        return links;
    }

    /**
     * The canonical sender (seed 004): the raw id, trimmed; replaced by its canonical name when
     * the id, {@code <channel>:<id>}, or the part of the id after its first colon is linked
     * (compared lower-case); then lower-cased. Empty for an empty sender.
     */
    public String canonical(String rawChannel, String rawSender) {
        String id = GoText.trim(rawSender);
        if (id.isEmpty()) {
            return "";
        }
        String linked = linked(rawChannel, id);
        return GoText.lower(linked != null ? linked : id);
    }

    private String linked(String rawChannel, String id) {
        if (links.isEmpty()) {
            return null;
        }
        List<String> candidates = new ArrayList<>(3);
        String raw = GoText.lower(id);
        candidates.add(raw);
        String channel = GoText.fold(rawChannel);
        if (!channel.isEmpty()) {
            candidates.add(channel + ":" + raw);
        }
        int colon = raw.indexOf(':');
        if (colon > 0 && colon < raw.length() - 1) {
            candidates.add(raw.substring(colon + 1));
        }
        for (Map.Entry<String, List<String>> e : links.entrySet()) {
            String canonical = GoText.trim(e.getKey());
            if (canonical.isEmpty()) {
                continue;
            }
            for (String known : e.getValue()) {
                String k = GoText.fold(known);
                if (!k.isEmpty() && candidates.contains(k)) {
                    return canonical;
                }
            }
        }
        return null;
    }
}
