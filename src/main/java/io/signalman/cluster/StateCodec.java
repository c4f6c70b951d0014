package io.signalman.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.state.StoreSpec;
import io.signalman.state.Versioned;

/**
 * How a stateful pack's value is stored in a cluster-wide map: one JSON string holding the value
 * and its version, {@code {"version": 3, "value": {...}}}. Strings compare byte for byte, so
 * Hazelcast's {@code replace(key, expected, next)} is a compare-and-set on (value, version), and
 * every node (same jar or not) reads what another wrote without Java serialization. The value's
 * own JSON form is its store's ({@link StoreSpec}), the one the local store, export and import use.
 */
public final class StateCodec<V> {

    private final StoreSpec<V> spec;

    StateCodec(StoreSpec<V> spec) {
        this.spec = spec;
    }

    String write(Versioned<V> v) {
        return write(v, -1);
    }

    /** With {@code changedAt} (epoch millis, or -1 for none): retention measures from it. */
    String write(Versioned<V> v, long changedAt) {
        var n = Json.object();
        n.put("version", v.version());
        if (changedAt >= 0) {
            n.put("changed_at", changedAt);
        }
        n.set("value", spec.write(v.value()));
        return Json.write(n);
    }

    /** When a stored value last changed (epoch millis), or -1 when it was written without. */
    static long changedAt(String stored) {
        try {
            return Json.parse(stored).path("changed_at").asLong(-1);
        } catch (InputException e) {
            return -1;
        }
    }

    Versioned<V> read(String stored) {
        try {
            JsonNode n = Json.parse(stored);
            return new Versioned<>(spec.read(n.get("value")), n.path("version").asLong());
        } catch (InputException e) {
            throw new IllegalStateException("a stored state does not read back (" + e.getMessage() + "): " + stored, e);
        }
    }
}
