package io.signalman.signals;

import io.signalman.json.Payload;

/**
 * The fact for the signal being routed: which agent received it, its kind ({@code user_message},
 * {@code tool_result}, {@code stop}, {@code timer} or {@code custom:<name>}, compared exactly), and
 * its payload, read through {@code has}, {@code text}, {@code number}, {@code flag}.
 */
public record Signal(String agent, String kind, Payload payload) {

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
