package io.signalman.broker;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The wire form of {@code POST /v1/broker/route}. {@code payload} is carried into the
 * decision log untouched; the shipped rules do not read it.
 */
public record BrokerMessage(String id, Envelope envelope, String type, String subtype, JsonNode payload) {

    /** Who sent the message and how urgent the sender says it is. */
    public record Envelope(String fromAgent, String priority) {
    }

    public Message fact() {
        return new Message(id, envelope.fromAgent(), envelope.priority(), type, subtype);
    }
}
