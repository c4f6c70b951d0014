package io.signalman.signals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.Set;

/** {@code {"agent": "reviewer", "signal": {"kind": "user_message", "payload": ...}}}, strictly read. */
public record SignalRequest(String agent, Body signal) {

    /** The signal itself. */
    public record Body(String kind, JsonNode payload) {
    }

    static final Set<String> KINDS = Set.of("user_message", "tool_result", "stop", "timer");

    public static SignalRequest parse(JsonNode json) throws InputException {
        SignalRequest r = Json.bind(Json.requireObject(json,
                "expected {\"agent\": \"...\", \"signal\": {\"kind\": \"...\", \"payload\": ...}}"), SignalRequest.class);
        if (r.agent() == null || r.agent().isBlank()) {
            throw new InputException("agent", "agent is required and must not be blank");
        }
        if (r.signal() == null) {
            throw new InputException("signal", "signal is required: {\"kind\": \"...\", \"payload\": ...}");
        }
        String kind = r.signal().kind();
        if (kind == null || !KINDS.contains(kind) && !(kind.startsWith("custom:") && kind.length() > "custom:".length())) {
            throw new InputException("signal.kind", "signal.kind must be user_message, tool_result, stop, timer or "
                    + "custom:<name>, not " + (kind == null ? "missing" : "\"" + kind + "\""));
        }
        return r;
    }

    static ObjectNode toJson(SignalStep s) {
        ObjectNode n = Json.object();
        n.put("agent", s.agent());
        ObjectNode sig = n.putObject("signal");
        sig.put("kind", s.kind());
        if (s.payload() != null) {
            sig.set("payload", s.payload());
        }
        return n;
    }
}
