package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.scenario.ScenarioFiles;
import io.signalman.scenario.ScenarioReport;
import io.signalman.scenario.ScenarioRunner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The whole check of a draft, as one answer: conflicts a rebase or revert left, compile
 * and lint (tables included), the scenario files that cannot be read, and every scenario of the
 * draft run as {@code signalman test --json} runs it. A save never says "compiles" while a
 * scenario fails or a scenario file is dropped: {@code ok} is true only when there is no error of
 * any kind and every scenario passes. Kept per revision (the last {@link #KEPT}), so showing a
 * draft again does not run its scenarios again.
 */
final class DraftCheck {

    private static final int KEPT = 8;

    private final Checks checks;
    private final StoppedRevisions stopped;
    private final Recent<Full> recent = new Recent<>(KEPT);

    /**
     * @param check     {@code {"ok", "compiles", "revision", "errors", "warnings", "counts"}}
     * @param scenarios the report of {@code signalman test --json}, with {@code ran} (false when the
     *                  draft does not compile: then only the scenario files' own errors are in it)
     */
    record Full(ObjectNode check, ObjectNode scenarios) {
    }

    DraftCheck(Checks checks, StoppedRevisions stopped) {
        this.checks = checks;
        this.stopped = stopped;
    }

    /**
     * Blocking (compiles, runs scenarios): a worker thread. Content whose rules were once stopped is
     * not checked or run again ({@link StoppedRevisions}).
     */
    Full of(BundleFiles files) {
        String why = stopped.why(files);
        if (why != null) {
            return refused(files, why);
        }
        return recent.get(files.revision(), () -> full(files));
    }

    private static Full refused(BundleFiles files, String why) {
        BundleError e = new BundleError(".", 0, 0, "these rules were stopped when they were last checked or run (" + why
                + "), so they are not run again: change the draft to check it again");
        ObjectNode check = Json.object();
        check.put("ok", false);
        check.put("compiles", false);
        check.put("revision", files.revision());
        check.put("stopped", why);
        check.set("errors", Checks.errors(List.of(e)));
        check.set("warnings", Checks.errors(List.of()));
        ScenarioFiles.Suite suite = ScenarioFiles.read(files);
        check.putObject("counts").put("errors", 1).put("conflicts", 0).put("scenario_file_errors", suite.errors().size())
                .put("warnings", 0).put("scenarios", suite.scenarios().size()).put("scenarios_failed", 0);
        return new Full(check, notRun(files, suite));
    }

    private Full full(BundleFiles files) {
        Checks.Outcome compiled = checks.check(files);
        compiled.errors().stream().filter(e -> e.message().startsWith("too complex to check")).findFirst()
                .ifPresent(e -> stopped.mark(files, e.message()));
        List<BundleError> conflicts = conflicts(files);
        Set<String> conflicted = new TreeSet<>();
        conflicts.forEach(c -> conflicted.add(c.file()));
        List<BundleError> errors = new ArrayList<>(conflicts);
        // A file with conflict markers fails to parse at them: its conflicts are its errors.
        compiled.errors().stream().filter(e -> !conflicted.contains(e.file())).forEach(errors::add);
        ScenarioFiles.Suite suite = ScenarioFiles.read(files);
        errors.addAll(suite.errors());
        errors.sort(Comparator.comparing(BundleError::file).thenComparingInt(BundleError::line));

        ObjectNode scenarios;
        int failed = 0;
        if (compiled.ok()) {
            RuleBundle b = compiled.bundle();
            ScenarioReport report = ScenarioRunner.run(b, suite);
            report.results().stream().filter(r -> r.stoppedOverBudget()).findFirst()
                    .ifPresent(r -> stopped.mark(files, "scenario \"" + r.scenario().name() + "\": " + r.error()));
            scenarios = report.toJson(b);
            scenarios.put("ran", true);
            failed = report.failures().size();
        } else {
            scenarios = notRun(files, suite);
        }
        ObjectNode check = Json.object();
        check.put("ok", errors.isEmpty() && failed == 0);
        check.put("compiles", compiled.ok());
        check.put("revision", files.revision());
        check.set("errors", Checks.errors(errors));
        check.set("warnings", Checks.errors(compiled.warnings()));
        check.putObject("counts").put("errors", errors.size()).put("conflicts", conflicts.size())
                .put("scenario_file_errors", suite.errors().size()).put("warnings", compiled.warnings().size())
                .put("scenarios", suite.scenarios().size()).put("scenarios_failed", failed);
        return new Full(check, scenarios);
    }

    /** The scenario report's shape when the draft does not compile: nothing ran, the files' errors count. */
    private static ObjectNode notRun(BundleFiles files, ScenarioFiles.Suite suite) {
        ObjectNode n = Json.object();
        n.put("revision", files.revision());
        n.put("ran", false);
        n.put("passed", false);
        n.put("scenarios", suite.scenarios().size());
        n.put("failed", 0);
        n.set("errors", BundleError.toJson(suite.errors()));
        n.putArray("results");
        n.putObject("packs");
        n.putObject("not_exercised");
        n.put("not_run", "the draft does not compile, so none of its " + suite.scenarios().size() + " scenarios ran");
        return n;
    }

    /** Every conflict a rebase or revert left in the files, at its opening marker. */
    static List<BundleError> conflicts(BundleFiles files) {
        List<BundleError> out = new ArrayList<>();
        for (String p : files.paths()) {
            String text = new String(files.bytes(p), StandardCharsets.UTF_8);
            if (!text.contains(LineMerge.OPEN)) {
                continue;
            }
            for (int line : LineMerge.unresolved(text)) {
                out.add(new BundleError(p, line, 1, "unresolved conflict: keep the lines you want from each side (between "
                        + "\"<<<<<<<\", \"=======\" and \">>>>>>>\"), then delete the three marker lines"));
            }
        }
        return out;
    }
}
