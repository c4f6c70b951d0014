package io.signalman.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.Packs;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.scenario.ScenarioReport;
import io.signalman.scenario.ScenarioRunner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman test [rules-dir] [--format text|json|junit|sarif] [--output FILE]} ({@code --json}:
 * {@code --format json}): runs every pack's scenarios ({@code <pack>/scenarios/*.yaml})
 * against the bundle they sit in, as the reload gate does. Prints each failure with what was
 * expected, what came out and why (the explanation), or with {@code --json} the report the
 * workbench shows ({@link ScenarioReport#toJson}), or JUnit XML or SARIF ({@link CiReports}); exit 1 on any failure or bad scenario file.
 */
final class TestCommand {

    private TestCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args args = new Args(argv, BudgetFlags.with(Set.of("rules", "format", "output")), Set.of("json"), env);
        BudgetFlags.apply(args);
        if (args.positional().size() > 1) {
            throw new Args.UsageException("test takes one rules directory");
        }
        String named = CiReports.given(args, "format");
        if (args.has("json") && named != null && !"json".equals(named)) {
            throw new Args.UsageException("--json is --format json; it cannot go with --format " + named);
        }
        CiReports.Format format = args.has("json") ? CiReports.Format.JSON : CiReports.Format.of(named == null ? "text" : named);
        Path rules = Path.of(args.positional().isEmpty() ? args.get("rules", "rules") : args.positional().get(0));
        return CiReports.to(CiReports.given(args, "output"), out, err, o -> run(rules, format, o, err));
    }

    private static int run(Path rules, CiReports.Format format, PrintStream out, PrintStream err) {
        RuleBundle bundle;
        BundleFiles files = null;
        try {
            files = BundleFiles.read(rules);
            bundle = Packs.compiler().compile(files);
        } catch (BundleException e) {
            List<CiReports.Finding> errors = CiReports.findings(CiReports.Kind.BUNDLE_ERROR, rules, files, e.errors());
            switch (format) {
                case SARIF -> CiReports.printJson(out, CiReports.sarif(errors, List.of(CiReports.Kind.BUNDLE_ERROR)));
                case JUNIT -> out.print(CiReports.testJunitRefused(errors));
                case JSON -> CiReports.printJson(out, refusedJson(e));
                default -> e.errors().forEach(error -> err.println(CheckCommand.located(rules, error, "error")));
            }
            err.printf("%d error(s): the bundle does not compile, so no scenario ran (see signalman check)%n", e.errors().size());
            return 1;
        }
        ScenarioReport report = ScenarioRunner.run(bundle);
        switch (format) {
            case JSON -> {
                out.println(Json.write(report.toJson(bundle)));
                return report.passed() ? 0 : 1;
            }
            case SARIF -> {
                CiReports.printJson(out, CiReports.sarif(CiReports.findings(rules, report),
                        List.of(CiReports.Kind.SCENARIO_FAILURE, CiReports.Kind.SCENARIO_FILE_ERROR)));
                return summary(report, err);
            }
            case JUNIT -> {
                out.print(CiReports.testJunit(rules, report));
                return summary(report, err);
            }
            default -> {
                // the text below
            }
        }
        out.print(report.toText(rules));
        Map<String, List<String>> untested = report.notExercised(bundle);
        untested.forEach((pack, names) -> out.println("rules of " + pack + " no scenario exercises (the golden history may): "
                + String.join(", ", names.stream().map(n -> "\"" + n + "\"").toList())));
        if (report.passed()) {
            out.printf("ok: %d scenarios passed, revision %s%n", report.results().size(), bundle.revision());
            return 0;
        }
        return summary(report, err);
    }

    /** The exit code, and the one-line summary of a failure on {@code err}. */
    private static int summary(ScenarioReport report, PrintStream err) {
        if (report.passed()) {
            return 0;
        }
        err.printf("FAIL: %d of %d scenarios failed, %d problem(s) in scenario files%n", report.failures().size(),
                report.results().size(), report.errors().size());
        return 1;
    }

    /**
     * {@code --format json} when the bundle does not compile: the report's shape
     * (docs/schemas/test.schema.json) with no results and the bundle's errors.
     */
    private static ObjectNode refusedJson(BundleException e) {
        ObjectNode n = Json.object();
        n.putNull("revision");
        n.put("passed", false);
        n.put("scenarios", 0);
        n.put("failed", 0);
        n.set("errors", BundleError.toJson(e.errors()));
        n.putArray("results");
        n.putObject("packs");
        n.putObject("not_exercised");
        return n;
    }
}
