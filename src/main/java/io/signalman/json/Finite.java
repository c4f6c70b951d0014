package io.signalman.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Refuses numbers that rules cannot compare as numbers (issue 17.5). JSON has no Infinity, but
 * {@code 1e999} is valid JSON whose value no double holds: rules read it as +Infinity, and a log
 * that wrote it back could not be replayed to the same decision. Such a number is a 400 naming
 * its field. Numbers are kept as sent ({@code BigDecimal}), so every finite one replays exactly.
 */
final class Finite {

    private Finite() {
    }

    /** Walks the tree; the first number beyond a double's range is an {@link InputException} naming its path. */
    static void check(JsonNode node) throws InputException {
        String path = find(node, "");
        if (path != null) {
            throw new InputException(path, (path.isEmpty() ? "the number" : path) + " is beyond the range of a number"
                    + " (about ±1.8e308): send a finite number");
        }
    }

    private static String find(JsonNode n, String path) {
        if (n.isNumber()) {
            return Double.isFinite(n.doubleValue()) ? null : path;
        }
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String found = find(f.getValue(), path.isEmpty() ? f.getKey() : path + "." + f.getKey());
                if (found != null) {
                    return found;
                }
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                String found = find(n.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
