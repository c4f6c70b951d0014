package io.signalman.engine.explain;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One constraint of a rule evaluated against the facts of one decision.
 *
 * @param pattern    the fact type the constraint belongs to ({@code Message})
 * @param constraint the constraint as written ({@code priority == "critical"})
 * @param line       its line in the rule's file
 * @param result     true or false; null when explain could not evaluate it ({@code note} says why)
 * @param values     what the constraint read, by the text that read it ({@code priority} -> {@code "high"})
 * @param facts      how many facts of the pattern's type got as far as this constraint and failed it
 *                   (the values shown are the first's)
 * @param note       why there is no result, or what else an analyst should know; null if nothing
 */
public record Check(String pattern, String constraint, int line, Boolean result, Map<String, Object> values, int facts,
                    String note) {

    /** {@code priority == "critical" was false: priority is "high"}. */
    public String sentence() {
        if (result == null) {
            return constraint + " could not be evaluated: " + note;
        }
        StringBuilder s = new StringBuilder(constraint).append(" was ").append(result);
        if (facts > 1) {
            s.append(" for ").append(facts).append(' ').append(pattern).append(" facts (the first:");
        } else if (!values.isEmpty() || note != null) {
            s.append(':');
        }
        if (!values.isEmpty()) {
            s.append(' ').append(values.entrySet().stream().map(e -> e.getKey() + " is " + Values.show(e.getValue()))
                    .collect(Collectors.joining(", ")));
        }
        if (note != null) {
            s.append(values.isEmpty() ? " " : "; ").append(note);
        }
        if (facts > 1) {
            s.append(')');
        }
        return s.toString();
    }

    /** The wire form: {@code {"pattern", "constraint", "line", "result", "values", "facts"?, "note"?}}. */
    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("pattern", pattern);
        n.put("constraint", constraint);
        n.put("line", line);
        if (result == null) {
            n.putNull("result");
        } else {
            n.put("result", result);
        }
        ObjectNode v = n.putObject("values");
        values.forEach((k, x) -> v.set(k, Values.tree(x)));
        if (facts > 1) {
            n.put("facts", facts);
        }
        if (note != null) {
            n.put("note", note);
        }
        n.put("text", sentence());
        n.put("words", words());
        return n;
    }

    /**
     * The constraint as an analyst says it, with its outcome: "the priority is critical: no (the
     * priority is "high")". Null when the constraint's form has no words here (the raw text stands).
     */
    public String words() {
        String said = Phrases.of(constraint, pattern);
        if (said == null) {
            return null;
        }
        StringBuilder s = new StringBuilder(said).append(": ").append(result == null ? "not known (" + note + ")" : result ? "yes" : "no");
        if (result != null && !values.isEmpty()) {
            s.append(" (").append(values.entrySet().stream().map(e -> e.getKey() + " is " + Values.show(e.getValue()))
                    .collect(Collectors.joining(", "))).append(facts > 1 ? ", for the first of " + facts + " " + pattern + " facts" : "")
                    .append(')');
        }
        return s.toString();
    }
}
