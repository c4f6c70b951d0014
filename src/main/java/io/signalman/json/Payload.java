package io.signalman.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * A JSON payload as rule conditions read it: {@code number("quality") >= 0.7},
 * {@code flag("approved")}, {@code text("command") == "deploy"}, {@code has("command")}. A field
 * is a top-level name, or a JSON pointer when it starts with '/'. Missing or mistyped fields
 * read as "no": NaN for numbers (every comparison with NaN is false), false, null.
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

    public double number(String field) {
        JsonNode n = at(field);
        return n.isNumber() ? n.doubleValue() : Double.NaN;
    }

    public boolean flag(String field) {
        return at(field).isBoolean() && at(field).booleanValue();
    }

    public String text(String field) {
        JsonNode n = at(field);
        return n.isTextual() ? n.textValue() : null;
    }

    private JsonNode at(String field) {
        return field.startsWith("/") ? json.at(field) : json.path(field);
    }
}
