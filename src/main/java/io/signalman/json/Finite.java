package io.signalman.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Refuses numbers that rules cannot compare as numbers (issues 17.5, 26.7). JSON has no Infinity, but
 * {@code 1e999} is valid JSON whose value no double holds: rules read it as +Infinity, and a log
 * that wrote it back could not be replayed to the same decision. Such a number is a 400 naming
 * its field. So is a number too small for a double ({@code 1e-999}), which it would read as 0.
 * Numbers are kept as sent ({@code BigDecimal}), so every finite one replays exactly.
 */
final class Finite {

    private Finite() {
    }

    /** Walks the tree; the first number that is not one is an {@link InputException} naming its path. */
    static void check(JsonNode node) throws InputException {
        Found f = find(node, "");
        if (f == null) {
            return;
        }
        String what = f.path().isEmpty() ? "the number" : f.path();
        if (Double.isFinite(f.node().doubleValue())) {
            // 1e-999 is not 0, but a double reads it as 0, and a rule would compare it as 0.
            throw new InputException(f.path(), what + " is " + f.node().asText() + ", too small for a number: it would be "
                    + "read as 0 (the smallest is about 4.9e-324); send 0, or a number rules can tell from 0");
        }
        throw new InputException(f.path(), what + " is beyond the range of a number (about ±1.8e308): send a finite number");
    }

    private record Found(String path, JsonNode node) {
    }

    private static Found find(JsonNode n, String path) {
        if (n.isNumber()) {
            double d = n.doubleValue();
            boolean underflows = d == 0.0 && n.isBigDecimal() && n.decimalValue().signum() != 0;
            return Double.isFinite(d) && !underflows ? null : new Found(path, n);
        }
        if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                Found found = find(f.getValue(), path.isEmpty() ? f.getKey() : path + "." + f.getKey());
                if (found != null) {
                    return found;
                }
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                Found found = find(n.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
