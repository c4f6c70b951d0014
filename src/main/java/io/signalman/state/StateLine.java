package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.time.Instant;

/**
 * One state entry as a line of JSON: the format of snapshots, of the state journal, of
 * {@code signalman state export} and {@code import}, and of a decision record's {@code state_after}.
 * <pre>
 * {"store": "fsm", "id": "r1", "version": 12, "changed_at": "2026-...Z", "value": {...GET's snapshot...}}
 * {"store": "fsm", "id": "r2", "version": 15, "expired_at": "2026-...Z"}      (a tombstone)
 * </pre>
 */
public record StateLine(String store, String id, long version, Instant changedAt, JsonNode value, Instant expiredAt) {

    static ObjectNode head(String store, String id, long version) {
        ObjectNode n = Json.object();
        n.put("store", store);
        n.put("id", id);
        n.put("version", version);
        return n;
    }

    /** A decision's {@code state_after}: the entry as the decision left it. */
    public static ObjectNode after(String store, String id, Versioned<?> v, JsonNode value) {
        ObjectNode n = head(store, id, v.version());
        n.set("value", value);
        return n;
    }

    /** Reads a line; {@code fallbackTime} stands for a missing {@code changed_at} (a decision's own time). */
    public static StateLine read(JsonNode n, Instant fallbackTime) {
        if (!n.path("store").isTextual() || !n.path("id").isTextual() || !n.path("version").canConvertToLong()) {
            throw new IllegalArgumentException("a state line needs \"store\", \"id\" and \"version\": " + n);
        }
        Instant changed = n.hasNonNull("changed_at") ? Instant.parse(n.get("changed_at").asText()) : fallbackTime;
        Instant expired = n.hasNonNull("expired_at") ? Instant.parse(n.get("expired_at").asText()) : null;
        JsonNode value = n.get("value");
        if (expired == null && (value == null || value.isNull())) {
            throw new IllegalArgumentException("a state line needs a \"value\" (or \"expired_at\"): " + n);
        }
        return new StateLine(n.get("store").asText(), n.get("id").asText(), n.get("version").asLong(),
                changed == null ? Instant.EPOCH : changed, value, expired);
    }
}
