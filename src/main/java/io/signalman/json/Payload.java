package io.signalman.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * A JSON payload as rule conditions read it: {@code number("quality") >= 0.7},
 * {@code flag("approved")}, {@code text("command") == "deploy"}, {@code has("command")}. A field
 * is a top-level name, or a JSON pointer when it starts with '/'; the empty pointer {@code ""} is
 * the payload itself, so {@code text("")} reads a payload that is a JSON string (synwire's routes
 * test the payload as a whole: a non-empty string, null). Missing or mistyped fields
 * read as "no": null for numbers and text (a Drools comparison with null is false), false for
 * flags. NOTE: not NaN: Drools compares numbers like {@code Double.compareTo}, where NaN is
 * greater than everything, so a missing quality would pass {@code number("quality") >= 0.7}.
 */
public record Payload(JsonNode json) {

    public static final Payload EMPTY = new Payload(NullNode.getInstance());

    public Payload {
        json = json == null ? NullNode.getInstance() : json;
    }

    public boolean has(String field) {
        JsonNode n = at(field);
        return !n.isMissingNode() && !n.isNull();
    }

    public Double number(String field) {
        JsonNode n = at(field);
        return n.isNumber() ? n.doubleValue() : null;
    }

    public boolean flag(String field) {
        return at(field).isBoolean() && at(field).booleanValue();
    }

    public String text(String field) {
        JsonNode n = at(field);
        return n.isTextual() ? n.textValue() : null;
    }

    /** True when there is no payload, or it is JSON {@code null}. */
    public boolean isNull() {
        return json.isNull() || json.isMissingNode();
    }

    private JsonNode at(String field) {
        return field.isEmpty() || field.startsWith("/") ? json.at(field) : json.path(field);
    }
}
