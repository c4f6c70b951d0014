package io.signalman.engine;

import io.signalman.json.Located;
import io.signalman.json.ReferenceJson;
import io.signalman.json.Unreadable;
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

    /**
     * The elements of a reference-data file {@code {"<field>": [...]}}, each with the line it starts
     * at; a file that cannot be read refuses the bundle at the place reading stopped.
     */
    public static <T> List<Located<T>> readList(String file, byte[] bytes, String field, Class<T> type)
            throws BundleException {
        try {
            return ReferenceJson.readList(bytes, field, type);
        } catch (Unreadable e) {
            throw new BundleException(BundleError.of(file, e));
        }
    }
}
