package io.signalman.json;

/**
 * A fact whose conditions read a JSON payload: {@code has("command")}, {@code number("quality")},
 * {@code flag("approved")}, {@code text("command")}. The reading rules live in {@link Payload}.
 */
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
}
