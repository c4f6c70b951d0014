package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import java.util.Iterator;
import java.util.Set;

/**
 * Strict reading of a trial's request bodies: an object with known fields only, each of the type
 * it must have, every refusal a 400 naming the field's path ({@code stop.max_divergence_rate}).
 * Nothing is coerced: {@code "50"} is not a percent and {@code 1} is not a boolean.
 */
final class Fields {

    private final ObjectNode node;
    private final String prefix;

    private Fields(ObjectNode node, String prefix) {
        this.node = node;
        this.prefix = prefix;
    }

    /** The body as an object with only {@code allowed} fields; an empty body is an empty object. */
    static Fields of(JsonNode body, String prefix, Set<String> allowed) throws InputException {
        if (body == null || body.isMissingNode()) {
            return new Fields(io.signalman.json.Json.object(), prefix);
        }
        if (!body.isObject()) {
            throw new InputException(prefix, (prefix.isEmpty() ? "the body" : prefix) + " must be a JSON object");
        }
        ObjectNode o = (ObjectNode) body;
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new InputException(path(prefix, f), "unknown field \"" + shorten(f) + "\"; "
                        + (prefix.isEmpty() ? "the body" : prefix) + " takes " + new java.util.TreeSet<>(allowed));
            }
        }
        return new Fields(o, prefix);
    }

    boolean has(String field) {
        return node.has(field) && !node.get(field).isNull();
    }

    JsonNode get(String field) {
        return node.get(field);
    }

    String path(String field) {
        return path(prefix, field);
    }

    /** A string of 1 to {@code max} characters, or null when absent and not required. */
    String text(String field, boolean required, int max) throws InputException {
        if (!has(field)) {
            if (required) {
                throw new InputException(path(field), field + " is required");
            }
            return null;
        }
        JsonNode v = node.get(field);
        if (!v.isTextual()) {
            throw new InputException(path(field), field + " must be a string");
        }
        String s = v.asText();
        if (s.isBlank() || s.length() > max) {
            throw new InputException(path(field), field + " must be 1 to " + max + " characters, not blank");
        }
        return s;
    }

    /** A finite number in [min, max], or null when absent. */
    Double number(String field, double min, double max) throws InputException {
        if (!has(field)) {
            return null;
        }
        JsonNode v = node.get(field);
        if (!v.isNumber()) {
            throw new InputException(path(field), field + " must be a number from " + plain(min) + " to " + plain(max));
        }
        double d = v.asDouble();
        if (!Double.isFinite(d) || d < min || d > max) {
            throw new InputException(path(field), field + " must be a number from " + plain(min) + " to " + plain(max)
                    + ", not " + v.asText());
        }
        return d;
    }

    /** A whole number in [min, max], or null when absent. */
    Long whole(String field, long min, long max) throws InputException {
        if (!has(field)) {
            return null;
        }
        JsonNode v = node.get(field);
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            throw new InputException(path(field), field + " must be a whole number from " + min + " to " + max);
        }
        return v.asLong();
    }

    /** true or false, or null when absent. */
    Boolean bool(String field) throws InputException {
        if (!has(field)) {
            return null;
        }
        JsonNode v = node.get(field);
        if (!v.isBoolean()) {
            throw new InputException(path(field), field + " must be true or false");
        }
        return v.asBoolean();
    }

    private static String path(String prefix, String field) {
        return prefix.isEmpty() ? field : prefix + "." + field;
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "...";
    }
}
