package io.signalman.fsm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;

/**
 * An action as clients send it, {@code {"action": "review", "payload": {...}}}; recorded with the
 * instance id as {@code {"id", "action", "payload"}}.
 */
public record ActionRequest(String id, String action, JsonNode payload) {

    /** The wire form without the id (the id is in the path). */
    private record Body(String id, String action, JsonNode payload) {
    }

    public static ActionRequest parse(JsonNode json, boolean needsId) throws InputException {
        Body b = Json.bind(Json.requireObject(json,
                "expected a JSON object {\"action\": \"...\", \"payload\": {...}}"), Body.class);
        if (b.action() == null || b.action().isBlank()) {
            throw new InputException("action", "action is required and must not be blank");
        }
        if (needsId && (b.id() == null || b.id().isBlank())) {
            throw new InputException("id", "id is required");
        }
        if (!needsId && b.id() != null) {
            throw new InputException("id", "the instance id is in the path, not the body");
        }
        return new ActionRequest(b.id(), b.action(), b.payload());
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("id", id);
        n.put("action", action);
        if (payload != null) {
            n.set("payload", payload);
        }
        return n;
    }
}
