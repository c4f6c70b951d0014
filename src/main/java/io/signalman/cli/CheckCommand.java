package io.signalman.cli;

import io.signalman.packs.Packs;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman check [rules-dir]}: compiles and lints the bundle exactly as the server would
 * load it. Prints {@code path:line:column: error|warning: message}; exit 1 on any error.
 */
final class CheckCommand {

    private CheckCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args args = new Args(argv, BudgetFlags.with(Set.of("rules")), Set.of(), env);
        BudgetFlags.apply(args);
        if (args.positional().size() > 1) {
            throw new Args.UsageException("check takes one rules directory");
        }
        Path rules = Path.of(args.positional().isEmpty() ? args.get("rules", "rules") : args.positional().get(0));
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
