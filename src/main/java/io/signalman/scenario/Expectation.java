package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Compares what a scenario expects with the decision that came out. An analyst names only the
 * fields that matter: an expected object matches when each field it names matches (the decision
 * may have more), a list matches element by element in order, numbers match by value ({@code 1}
 * and {@code 1.0} are equal), and a rule's name matches a fired-rule entry, so that
 * {@code rules_fired: [a rule, another rule]} reads as the analyst would write it.
 */
final class Expectation {

    private Expectation() {
    }

    /** Every expected top-level field that does not match the decision. */
    static List<Mismatch> compare(JsonNode expect, JsonNode decision) {
        List<Mismatch> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = expect.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode actual = decision.get(f.getKey());
            if (actual == null) {
                List<String> fields = new ArrayList<>();
                decision.fieldNames().forEachRemaining(fields::add);
                out.add(new Mismatch(f.getKey(), f.getValue(), null, "a decision of this pack has no field \""
                        + f.getKey() + "\"; its fields are " + fields));
            } else if (!matches(f.getValue(), actual)) {
                out.add(new Mismatch(f.getKey(), f.getValue(), actual, null));
            }
        }
        return out;
    }

    static boolean matches(JsonNode expected, JsonNode actual) {
        if (expected.isNull()) {
            return actual == null || actual.isNull() || actual.isMissingNode();
        }
        if (actual == null || actual.isMissingNode()) {
            return false;
        }
        if (expected.isNumber() && actual.isNumber()) {
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0;
        }
        if (expected.isTextual() && actual.isObject() && actual.has("rule")) {
            return expected.asText().equals(actual.get("rule").asText());
        }
        if (expected.isObject()) {
            if (!actual.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (!matches(f.getValue(), actual.get(f.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                return false;
            }
            for (int i = 0; i < expected.size(); i++) {
                if (!matches(expected.get(i), actual.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return expected.equals(actual);
    }
}
