package io.signalman.scenario;

import com.fasterxml.jackson.databind.JsonNode;
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
}
