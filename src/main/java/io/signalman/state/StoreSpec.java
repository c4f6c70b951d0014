package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a durable store needs to know of a stateful pack's value: how it is written as JSON (the
 * snapshot format {@code GET} and {@code PUT} use), how it is read back, and whether it is
 * finished (kept only for {@code --state-retention} after its last change).
 */
public record StoreSpec<V>(String name, Function<V, JsonNode> writer, Reader<V> reader, Predicate<V> finished) {

    /** Reads a value back from its JSON form. */
    @FunctionalInterface
    public interface Reader<V> {
        V read(JsonNode node) throws InputException;
    }

    public JsonNode write(V value) {
        return writer.apply(value);
    }

    public V read(JsonNode node) {
        try {
            return reader.read(node);
        } catch (InputException e) {
            throw new IllegalStateException("a stored " + name + " state does not read back (" + e.getMessage() + "): " + node, e);
        }
    }
}
