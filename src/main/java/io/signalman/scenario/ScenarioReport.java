package io.signalman.scenario;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The outcome of a bundle's scenarios: each scenario's result, what is wrong with the scenario
 * files themselves, and which rules the scenarios exercised (half of coverage; the golden history
 * is the other half, see {@link Coverage}).
 */
public record ScenarioReport(List<ScenarioResult> results, List<BundleError> errors) {

    public ScenarioReport {
        results = List.copyOf(results);
        errors = List.copyOf(errors);
    }

    public boolean passed() {
        return errors.isEmpty() && results.stream().allMatch(ScenarioResult::passed);
    }

    public List<ScenarioResult> failures() {
        return results.stream().filter(r -> !r.passed()).toList();
    }

    /** The rules that fired in some scenario, by pack. */
    public Map<String, Set<String>> exercised() {
        Map<String, Set<String>> out = new TreeMap<>();
        for (ScenarioResult r : results) {
            out.computeIfAbsent(r.scenario().pack(), k -> new HashSet<>()).addAll(r.fired());
        }
        return out;
    }

    /** The rules of {@code bundle} that no scenario exercises, by pack, in file order. */
    public Map<String, List<String>> notExercised(RuleBundle bundle) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Map<String, Set<String>> seen = exercised();
        for (CompiledPack pack : bundle.packs().values()) {
            Set<String> fired = seen.getOrDefault(pack.name(), Set.of());
            List<String> never = pack.rules().stream().map(RuleInfo::name).filter(n -> !fired.contains(n)).toList();
            if (!never.isEmpty()) {
                out.put(pack.name(), never);
            }
        }
        return out;
    }

    /**
     * The reasons a gate refuses a bundle for its scenarios, each at its scenario's file and line:
     * the scenario's name, then what was expected and what came out.
     */
    public List<BundleError> asErrors() {
        List<BundleError> out = new ArrayList<>(errors);
        for (ScenarioResult r : failures()) {
            out.add(new BundleError(r.scenario().file(), r.scenario().line(), 0,
                    "scenario \"" + r.scenario().name() + "\" fails: " + r.failure()));
        }
        return out;
    }

    /**
     * The report {@code signalman test} prints: each failure with expected vs actual and the
     * explanation, then a line per pack. Paths are shown under {@code rulesDir}.
     */
    public String toText(Path rulesDir) {
        StringBuilder out = new StringBuilder();
        for (BundleError e : errors) {
            out.append(rulesDir.resolve(e.file()).normalize()).append(':').append(e.line()).append(": error: ")
                    .append(e.message()).append('\n');
        }
        for (ScenarioResult r : failures()) {
            out.append(rulesDir.resolve(r.scenario().file()).normalize()).append(':').append(r.scenario().line())
                    .append(": FAIL \"").append(r.scenario().name()).append("\"\n");
            if (r.error() != null) {
                out.append("    ").append(r.error()).append('\n');
            }
            for (Mismatch m : r.mismatches()) {
                out.append("    ").append(m).append('\n');
            }
            if (!r.explanation().isEmpty()) {
                out.append("    ").append(r.explanation().get(0)).append('\n');
                out.append("    rules considered, in firing order:\n");
                r.explanation().subList(1, r.explanation().size()).forEach(l -> out.append("      ").append(l).append('\n'));
            }
        }
        Map<String, int[]> byPack = new TreeMap<>();
        for (ScenarioResult r : results) {
            int[] c = byPack.computeIfAbsent(r.scenario().pack(), k -> new int[2]);
            c[r.passed() ? 0 : 1]++;
        }
        byPack.forEach((pack, c) -> out.append(String.format("%-9s %3d scenarios: %d passed, %d failed%n", pack,
                c[0] + c[1], c[0], c[1])));
        return out.toString();
    }

    /**
     * The report as JSON, for {@code signalman test --json} and the workbench alike:
     * {@code passed}, counts, the problems in scenario files ({@code errors}, each at its file and
     * line), every scenario's result in file order, the counts by pack, and the rules of
     * {@code bundle} no scenario exercises.
     */
    public ObjectNode toJson(RuleBundle bundle) {
        ObjectNode n = Json.object();
        n.put("revision", bundle.revision());
        n.put("passed", passed());
        n.put("scenarios", results.size());
        n.put("failed", failures().size());
        n.set("errors", BundleError.toJson(errors));
        ArrayNode list = n.putArray("results");
        Map<String, int[]> byPack = new TreeMap<>();
        for (ScenarioResult r : results) {
            list.add(r.toJson());
            byPack.computeIfAbsent(r.scenario().pack(), k -> new int[2])[r.passed() ? 0 : 1]++;
        }
        ObjectNode packs = n.putObject("packs");
        byPack.forEach((pack, c) -> packs.putObject(pack).put("scenarios", c[0] + c[1]).put("passed", c[0]).put("failed", c[1]));
        ObjectNode untested = n.putObject("not_exercised");
        notExercised(bundle).forEach((pack, names) -> names.forEach(untested.putArray(pack)::add));
        return n;
    }
}
