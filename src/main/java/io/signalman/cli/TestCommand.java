package io.signalman.cli;

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
 * {@code signalman test [rules-dir] [--json]}: runs every pack's scenarios ({@code <pack>/scenarios/*.yaml})
 * against the bundle they sit in, as the reload gate does. Prints each failure with what was
 * expected, what came out and why (the explanation), or with {@code --json} the report the
 * workbench shows ({@link ScenarioReport#toJson}); exit 1 on any failure or bad scenario file.
 */
final class TestCommand {

    private TestCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args args = new Args(argv, BudgetFlags.with(Set.of("rules")), Set.of("json"), env);
        BudgetFlags.apply(args);
        if (args.positional().size() > 1) {
            throw new Args.UsageException("test takes one rules directory");
        }
        Path rules = Path.of(args.positional().isEmpty() ? args.get("rules", "rules") : args.positional().get(0));
        RuleBundle bundle;
        try {
            bundle = Packs.compiler().compile(BundleFiles.read(rules));
        } catch (BundleException e) {
            for (BundleError error : e.errors()) {
                err.println(CheckCommand.located(rules, error, "error"));
            }
            err.printf("%d error(s): the bundle does not compile, so no scenario ran (see signalman check)%n", e.errors().size());
            return 1;
        }
        ScenarioReport report = ScenarioRunner.run(bundle);
        if (args.has("json")) {
            out.println(Json.write(report.toJson(bundle)));
            return report.passed() ? 0 : 1;
        }
        out.print(report.toText(rules));
        Map<String, List<String>> untested = report.notExercised(bundle);
        untested.forEach((pack, names) -> out.println("rules of " + pack + " no scenario exercises (the golden history may): "
                + String.join(", ", names.stream().map(n -> "\"" + n + "\"").toList())));
        int failed = report.failures().size();
        if (report.passed()) {
            out.printf("ok: %d scenarios passed, revision %s%n", report.results().size(), bundle.revision());
            return 0;
        }
        err.printf("FAIL: %d of %d scenarios failed, %d problem(s) in scenario files%n", failed, report.results().size(),
                report.errors().size());
        return 1;
    }
}
