package io.signalman.cost;

import io.signalman.rulelang.Vocabulary;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads a field of the pack's reference facts, as a rule's constraint reads it, to count how many
 * facts share a value. Only the pack's own fact classes are read, through the accessors
 * {@link Vocabulary#fields} publishes; this is the platform's code, not a rule's.
 */
final class FieldValues {

    private FieldValues() {
    }

    /**
     * How many of {@code facts} share the commonest value of {@code field} (the most a join on that
     * field can match for one left side), or -1 when the field cannot be read.
     */
    static long largestGroup(List<Object> facts, String field) {
        Map<Object, Long> counts = new HashMap<>();
        long most = 0;
        for (Object f : facts) {
            Object v = value(f, field);
            if (v == NONE) {
                return -1;
            }
            long n = counts.merge(v == null ? NULL : v, 1L, Long::sum);
            most = Math.max(most, n);
        }
        return most;
    }

    /** How many of {@code facts} hold {@code literal} in {@code field}, or -1 when the field cannot be read. */
    static long matching(List<Object> facts, String field, Object literal) {
        long n = 0;
        for (Object f : facts) {
            Object v = value(f, field);
            if (v == NONE) {
                return -1;
            }
            n += Objects.equals(v, literal) ? 1 : 0;
        }
        return n;
    }

    private static final Object NONE = new Object();
    private static final Object NULL = new Object();

    private static Object value(Object fact, String field) {
        if (!Vocabulary.fields(fact.getClass()).containsKey(field)) {
            return NONE;
        }
        String cap = Character.toUpperCase(field.charAt(0)) + field.substring(1);
        for (String name : List.of(field, "get" + cap, "is" + cap)) {
            try {
                Method m = fact.getClass().getMethod(name);
                return m.invoke(fact);
            } catch (NoSuchMethodException e) {
                // the next spelling
            } catch (ReflectiveOperationException | RuntimeException e) {
                return NONE;
            }
        }
        return NONE;
    }
}
