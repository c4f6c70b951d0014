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

    /**
     * The longest text any field of {@code facts} holds (a text, or a text in a list or a map's
     * values): a pattern tested on a reference fact sees that, which an author's edit of the
     * reference data can make longer than any request body.
     */
    static long longestText(List<Object> facts) {
        return most(facts, FieldValues::textLength);
    }

    /** The most elements any list or map field of {@code facts} holds. */
    static long longestList(List<Object> facts) {
        return most(facts, v -> v instanceof java.util.Collection<?> c ? c.size() : v instanceof Map<?, ?> m ? m.size() : 0);
    }

    /** The largest {@code measure} of any field's value of any of {@code facts}. */
    private static long most(List<Object> facts, java.util.function.ToLongFunction<Object> measure) {
        long most = 0;
        Map<Class<?>, java.util.Set<String>> fields = new HashMap<>();
        for (Object f : facts) {
            for (String field : fields.computeIfAbsent(f.getClass(), c -> Vocabulary.fields(c).keySet())) {
                most = Math.max(most, measure.applyAsLong(value(f, field)));
            }
        }
        return most;
    }

    private static long textLength(Object v) {
        if (v instanceof CharSequence s) {
            return s.length();
        }
        long longest = 0;
        if (v instanceof java.util.Collection<?> c) {
            for (Object x : c) {
                longest = Math.max(longest, x instanceof CharSequence s ? s.length() : 0);
            }
        } else if (v instanceof Map<?, ?> m) {
            for (Object x : m.values()) {
                longest = Math.max(longest, x instanceof CharSequence s ? s.length() : 0);
            }
        }
        return longest;
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
