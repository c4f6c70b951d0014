package io.signalman.dispatch;

import io.signalman.rulelang.RuleVocabulary;
import java.util.Objects;

/**
 * The normalized view dispatch rules match on (seed 004), one per decision. Every field is in
 * the exact shape a rule compares with: {@code channel} lower-case, {@code account} a normalized
 * account id, {@code space} {@code <type>:<id>}, {@code chat} {@code <type>:<id>}, {@code topic}
 * {@code topic:<id>}, {@code sender} the lower-case canonical sender; a field the message does
 * not carry is the empty string. Equality is by value: two messages with the same view dispatch
 * alike.
 */
@RuleVocabulary
public record Inbound(String channel, String account, String space, String chat, String topic, String sender,
                      boolean mentioned) {

    public Inbound {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(space, "space");
        Objects.requireNonNull(chat, "chat");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(sender, "sender");
    }

    /** The value of one session dimension ({@code space}, {@code chat}, {@code topic}, {@code sender}). */
    public String dimension(String name) {
        return switch (name) {
            case "space" -> space;
            case "chat" -> chat;
            case "topic" -> topic;
            case "sender" -> sender;
            default -> throw new IllegalArgumentException("no session dimension \"" + name + "\"");
        };
    }
}
