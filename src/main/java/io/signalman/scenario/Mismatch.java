package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
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
}
