package io.signalman.engine;

import java.util.List;

/**
 * A pack's parsed reference data: the typed value the pack's Java code uses, and the facts
 * inserted once into every session of the pack (they are read-only for rules).
 */
public record ReferenceData(Object value, List<Object> facts) {

    public static final ReferenceData NONE = new ReferenceData(null, List.of());

    public ReferenceData {
        facts = List.copyOf(facts);
    }

    public <T> T as(Class<T> type) {
        return type.cast(value);
    }
}
