package io.signalman.json;

import io.signalman.rulelang.RuleVocabulary;

/**
 * A fact whose conditions read a JSON payload: {@code has("command")}, {@code number("quality")},
 * {@code flag("approved")}, {@code text("command")}, and the payload as a whole:
 * {@code payloadText()}, {@code payloadIsNull()} ({@code ""} is the root pointer too:
 * {@code text("")} is {@code payloadText()}). The reading rules live in {@link Payload}.
 */
@RuleVocabulary
public interface ReadsPayload {

    Payload payload();

    default boolean has(String field) {
        return payload().has(field);
    }

    default Double number(String field) {
        return payload().number(field);
    }

    default boolean flag(String field) {
        return payload().flag(field);
    }

    default String text(String field) {
        return payload().text(field);
    }

    /** The payload when it is a JSON string ({@code ""} included), else null. */
    default String payloadText() {
        return payload().text("");
    }

    /** True when the payload is absent or JSON {@code null}. */
    default boolean payloadIsNull() {
        return payload().isNull();
    }
}
