package io.signalman.dispatch;

/**
 * Builds the view dispatch rules match on, exactly as seed 004 describes it. A space or chat
 * without an id, or a blank topic, is absent (the empty string), whatever its type says.
 */
public final class Normalizer {

    private final IdentityLinks links;

    public Normalizer(IdentityLinks links) {
        this.links = links;
    }

    public Inbound view(InboundMessage m) {
        return new Inbound(
                channel(m.channel()),
                Ids.account(m.account()),
                place(m.space(), "space"),
                place(m.chat(), "direct"),
                topic(m.topic()),
                // The seed passes the raw channel here; the link lookup trims and lowers it itself.
                links.canonical(m.channel(), m.sender()),
                m.isMentioned());
    }

    /** Lower-case, trimmed: {@code " Telegram "} is {@code telegram}. */
    public static String channel(String raw) {
        return GoText.fold(raw);
    }

    /** {@code <type or default>:<id>}, both trimmed and lower-cased; empty without an id. */
    static String place(InboundMessage.Place p, String defaultType) {
        if (p == null) {
            return "";
        }
        String id = GoText.trim(p.id());
        if (id.isEmpty()) {
            return "";
        }
        String type = GoText.fold(p.type());
        return (type.isEmpty() ? defaultType : type) + ":" + GoText.lower(id);
    }

    static String topic(String raw) {
        String id = GoText.trim(raw);
        return id.isEmpty() ? "" : "topic:" + GoText.lower(id);
    }
}
