package io.signalman.fsm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.Objects;

/**
 * The stored state of one FSM instance, and its snapshot form (seed 002):
 * {@code {"type": "fsm", "machine": "review-flow", "current_state": "running"}}.
 */
public record FsmInstance(String machine, String currentState) {

    public FsmInstance {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(currentState, "currentState");
    }

    public ObjectNode snapshot() {
        ObjectNode n = Json.object();
        n.put("type", "fsm");
        n.put("machine", machine);
        n.put("current_state", currentState);
        return n;
    }

    /** Reads a snapshot; the machine and state are checked against the rules by the caller. */
    public static FsmInstance fromSnapshot(JsonNode n) throws InputException {
        if (n == null || !n.isObject()) {
            throw new InputException("", "a snapshot is {\"type\": \"fsm\", \"machine\": \"...\", \"current_state\": \"...\"}");
        }
        var names = n.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!f.equals("type") && !f.equals("machine") && !f.equals("current_state")) {
                throw new InputException(f, "unknown field \"" + f + "\"; a snapshot has type, machine and current_state");
            }
        }
        if (!"fsm".equals(n.path("type").asText(null))) {
            throw new InputException("type", "type must be \"fsm\"");
        }
        return new FsmInstance(text(n, "machine"), text(n, "current_state"));
    }

    private static String text(JsonNode n, String field) throws InputException {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new InputException(field, field + " is required and must be a non-blank string");
        }
        return v.asText();
    }
}
