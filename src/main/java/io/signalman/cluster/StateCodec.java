package io.signalman.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.fsm.FsmInstance;
import io.signalman.fsm.FsmService;
import io.signalman.handoff.ConversationState;
import io.signalman.handoff.HandoffPack;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.state.Versioned;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a stateful pack's value is stored in a cluster-wide map: one JSON string holding the value
 * and its version, {@code {"version": 3, "value": {...}}}. Strings compare byte for byte, so
 * Hazelcast's {@code replace(key, expected, next)} is a compare-and-set on (value, version), and
 * every node (same jar or not) reads what another wrote without Java serialization.
 */
public final class StateCodec<V> {

    /** The codec of every store a stateful pack uses, by store name. */
    static final Map<String, StateCodec<?>> STORES = Map.of(
            FsmService.STORE, new StateCodec<>(FsmInstance::snapshot, FsmInstance::fromSnapshot),
            HandoffPack.NAME, new StateCodec<>(ConversationState::toJson, ConversationState::fromJson));

    /** Reads a value back from its JSON form. */
    @FunctionalInterface
    interface Reader<V> {
        V read(JsonNode node) throws InputException;
    }

    private final Function<V, JsonNode> writer;
    private final Reader<V> reader;

    StateCodec(Function<V, JsonNode> writer, Reader<V> reader) {
        this.writer = writer;
        this.reader = reader;
    }

    @SuppressWarnings("unchecked")
    static <V> StateCodec<V> forStore(String name) {
        return (StateCodec<V>) Optional.ofNullable(STORES.get(name)).orElseThrow(() -> new IllegalArgumentException(
                "no cluster codec for state store \"" + name + "\"; known: " + STORES.keySet()));
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
        n.set("value", writer.apply(v.value()));
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
            return new Versioned<>(reader.read(n.get("value")), n.path("version").asLong());
        } catch (InputException e) {
            throw new IllegalStateException("a stored state does not read back (" + e.getMessage() + "): " + stored, e);
        }
    }
}
