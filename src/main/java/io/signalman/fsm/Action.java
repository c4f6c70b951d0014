package io.signalman.fsm;

import io.signalman.json.Payload;

/**
 * The fact for the action being applied. Guards read its payload:
 * {@code Action( name == "review", number("quality") >= 0.7 )}.
 */
public record Action(String name, Payload payload) {

    public boolean has(String field) {
        return payload.has(field);
    }

    public Double number(String field) {
        return payload.number(field);
    }

    public boolean flag(String field) {
        return payload.flag(field);
    }

    public String text(String field) {
        return payload.text(field);
    }
}
