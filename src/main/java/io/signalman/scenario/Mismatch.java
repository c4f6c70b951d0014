package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;

/**
 * One expected field of a scenario that did not come out as expected.
 *
 * @param actual null when the decision has no such field
 * @param note why, when the values alone do not say it (a field the pack's decisions do not have)
 */
public record Mismatch(String field, JsonNode expected, JsonNode actual, String note) {

    @Override
    public String toString() {
        return field + ": expected " + Json.write(expected) + ", got " + (actual == null ? "nothing" : Json.write(actual))
                + (note == null ? "" : " (" + note + ")");
    }

    /** {@code {"field", "expected", "actual", "note"?}}; {@code actual} is null when the decision has no such field. */
    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("field", field);
        n.set("expected", expected);
        n.set("actual", actual == null ? Json.MAPPER.nullNode() : actual);
        if (note != null) {
            n.put("note", note);
        }
        return n;
    }
}
