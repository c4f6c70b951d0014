package io.signalman.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Coverage (every rule exercised) counts the golden history and the scenarios together: a rule
 * is covered when some recorded decision or some scenario fires it. So an analyst who adds a rule
 * adds a scenario beside it (or records history), never Java.
 */
public final class Coverage {

    private Coverage() {
    }

    /**
     * The rules neither the history nor the scenarios exercise, by pack.
     *
     * @param neverFiredInHistory what replaying the golden history left unfired ({@code ReplayReport.neverFired()})
     */
    public static Map<String, List<String>> uncovered(Map<String, List<String>> neverFiredInHistory, ScenarioReport scenarios) {
        Map<String, Set<String>> exercised = scenarios.exercised();
        Map<String, List<String>> out = new LinkedHashMap<>();
        neverFiredInHistory.forEach((pack, rules) -> {
            Set<String> fired = exercised.getOrDefault(pack, Set.of());
            List<String> left = rules.stream().filter(r -> !fired.contains(r)).toList();
            if (!left.isEmpty()) {
                out.put(pack, left);
            }
        });
        return out;
    }

    /** How an analyst covers what {@link #uncovered} lists, in their own terms. */
    public static String advice(Map<String, List<String>> uncovered) {
        StringBuilder out = new StringBuilder("rules that neither the golden history nor a scenario exercises:");
        uncovered.forEach((pack, rules) -> rules.forEach(r -> out.append("\n  ").append(pack).append(": \"").append(r).append('"')));
        out.append("\nadd a scenario that makes each fire to rules/<pack>/scenarios/*.yaml (see rules/README.md),"
                + " or record a decision that fires it with signalman replay --accept and review the diff");
        return out.toString();
    }
}
