package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;

/**
 * How one scenario came out.
 *
 * @param decision the decision as a replay record holds it (the pack's fields, rule, reason,
 *                 rules_fired), or null when the scenario could not be decided
 * @param mismatches the expected fields that came out otherwise
 * @param error why the scenario could not be decided (its input or state is not valid for the pack,
 *              or the rules failed), or null
 * @param explanation every rule of the pack in firing order with why it did or did not fire, in
 *                    the rules' own {@code @reason} words
 * @param fired the names of the rules that fired (for coverage)
 */
public record ScenarioResult(Scenario scenario, JsonNode decision, List<Mismatch> mismatches, String error,
                             List<String> explanation, List<String> fired) {

    /** How the error of a scenario whose rules were stopped over their budget begins. */
    public static final String STOPPED = "its rules were stopped over their budget: ";

    /** Whether the scenario's rules were stopped over their budget (its draft is then never run again). */
    public boolean stoppedOverBudget() {
        return error != null && error.startsWith(STOPPED);
    }

    public ScenarioResult {
        mismatches = List.copyOf(mismatches);
        explanation = List.copyOf(explanation);
        fired = List.copyOf(fired);
    }

    public boolean passed() {
        return error == null && mismatches.isEmpty();
    }

    /** What went wrong in one line: the error, or each field as expected vs actual. */
    public String failure() {
        if (error != null) {
            return error;
        }
        return String.join("; ", mismatches.stream().map(Mismatch::toString).toList());
    }

    /**
     * {@code {"name", "pack", "file", "line", "passed"}}, and for a failure what {@code signalman test}
     * prints of it: {@code error} or {@code mismatches} (expected vs actual), the {@code decision}
     * that came out and its {@code explanation}.
     */
    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("name", scenario.name());
        n.put("pack", scenario.pack());
        n.put("file", scenario.file());
        n.put("line", scenario.line());
        n.put("passed", passed());
        if (!passed()) {
            if (error != null) {
                n.put("error", error);
            }
            ArrayNode m = n.putArray("mismatches");
            mismatches.forEach(x -> m.add(x.toJson()));
            n.set("decision", decision == null ? Json.MAPPER.nullNode() : decision);
            explanation.forEach(n.putArray("explanation")::add);
        }
        return n;
    }
}
