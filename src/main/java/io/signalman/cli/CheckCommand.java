package io.signalman.cli;

import io.signalman.packs.Packs;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code signalman check [rules-dir] [--format text|json|junit|sarif] [--output FILE]}: compiles and
 * lints the bundle exactly as the server would load it. Prints {@code path:line:column: error|warning:
 * message}, or with {@code --format} a report for CI ({@link CiReports}); exit 1 on any error.
 */
final class CheckCommand {

    private CheckCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args args = new Args(argv, BudgetFlags.with(Set.of("rules", "format", "output")), Set.of(), env);
        BudgetFlags.apply(args);
        if (args.positional().size() > 1) {
            throw new Args.UsageException("check takes one rules directory");
        }
        CiReports.Format format = CiReports.Format.of(Objects.requireNonNullElse(CiReports.given(args, "format"), "text"));
        Path rules = Path.of(args.positional().isEmpty() ? args.get("rules", "rules") : args.positional().get(0));
        return CiReports.to(CiReports.given(args, "output"), out, err, o -> format == CiReports.Format.TEXT ? text(rules, o, err)
                : report(rules, format, o, err));
    }

    private static int text(Path rules, PrintStream out, PrintStream err) {
        try {
            RuleBundle bundle = Packs.compiler().compile(BundleFiles.read(rules));
            for (BundleError w : bundle.warnings()) {
                out.println(located(rules, w, "warning"));
            }
            long count = bundle.packs().values().stream().mapToLong(p -> p.rules().size()).sum();
            out.printf("ok: %d rules in %d packs, %d warnings, revision %s%n", count, bundle.packs().size(),
                    bundle.warnings().size(), bundle.revision());
            return 0;
        } catch (BundleException e) {
            for (BundleError error : e.errors()) {
                err.println(located(rules, error, "error"));
            }
            err.printf("%d error(s): the bundle is refused%n", e.errors().size());
            return 1;
        }
    }

    /** {@code --format json|junit|sarif}: the report alone on {@code out}, a summary on {@code err} when refused. */
    private static int report(Path rules, CiReports.Format format, PrintStream out, PrintStream err) {
        BundleFiles files = null;
        List<CiReports.Finding> errors = List.of();
        List<CiReports.Finding> warnings = List.of();
        RuleBundle bundle = null;
        try {
            files = BundleFiles.read(rules);
            bundle = Packs.compiler().compile(files);
            warnings = CiReports.findings(CiReports.Kind.LINT_WARNING, rules, files, bundle.warnings());
        } catch (BundleException e) {
            errors = CiReports.findings(CiReports.Kind.BUNDLE_ERROR, rules, files, e.errors());
        }
        switch (format) {
            case JSON -> CiReports.printJson(out, CiReports.checkJson(bundle != null, bundle == null ? null : bundle.revision(),
                    bundle == null ? 0 : bundle.packs().values().stream().mapToLong(p -> p.rules().size()).sum(),
                    bundle == null ? 0 : bundle.packs().size(), errors, warnings));
            case SARIF -> {
                List<CiReports.Finding> all = new ArrayList<>(errors);
                all.addAll(warnings);
                CiReports.printJson(out, CiReports.sarif(all, List.of(CiReports.Kind.BUNDLE_ERROR, CiReports.Kind.LINT_WARNING)));
            }
            case JUNIT -> {
                List<String> shown = new ArrayList<>();
                if (files != null) {
                    for (String p : files.paths()) {
                        if (!BundleFiles.isScenario(p) && !p.endsWith(".md")) {
                            shown.add(CiReports.shownFile(rules, p));
                        }
                    }
                }
                out.print(CiReports.checkJunit(shown, errors, warnings));
            }
            default -> throw new IllegalStateException(format.name());
        }
        if (bundle == null) {
            err.printf("%d error(s): the bundle is refused%n", errors.size());
            return 1;
        }
        return 0;
    }

    /**
     * {@code path:line:column: severity: message}, the path as the user would type it from where
     * they stand: a rule file under the rules folder, the golden history (absolute in the error)
     * where it is.
     */
    static String located(Path rules, BundleError e, String severity) {
        Path file = Path.of(e.file());
        return io.signalman.replay.ReplayGate.shown(file.isAbsolute() ? file : rules.resolve(file)) + ":" + e.line() + ":"
                + e.column() + ": " + severity + ": " + e.message();
    }
}
