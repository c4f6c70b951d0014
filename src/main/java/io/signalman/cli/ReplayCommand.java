package io.signalman.cli;

import io.signalman.Packs;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.Replayer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman replay [--rules DIR] [--baseline DIR] [--report FILE.json] [--accept] ARCHIVE...}
 * (SPEC 6). Exit 0 only when nothing changed, no invariant broke and every record was read.
 * With {@code --accept}, the changes are shown and then written into the archive files as the
 * new recorded decisions (refused if an invariant breaks).
 */
final class ReplayCommand {

    private ReplayCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("rules", "baseline", "report"), Set.of("accept"), env);
        if (a.positional().isEmpty()) {
            throw new Args.UsageException("replay needs at least one ARCHIVE (a .jsonl file or a folder of them)");
        }
        RuleBundle candidate = compile(Path.of(a.get("rules", "rules")), "candidate", err);
        String baselineDir = a.get("baseline", null);
        RuleBundle baseline = baselineDir == null ? null : compile(Path.of(baselineDir), "baseline", err);
        if (candidate == null || baselineDir != null && baseline == null) {
            return 1;
        }
        Archive archive;
        try {
            archive = Archive.read(a.positional().stream().map(Path::of).toList());
        } catch (IOException e) {
            err.println("signalman replay: " + e.getMessage());
            return 1;
        }
        Replayer replayer = new Replayer(candidate, baseline, err);
        ReplayReport report = replayer.replay(archive);
        out.print(report.toText());
        String reportFile = a.get("report", null);
        if (reportFile != null) {
            try {
                Files.writeString(Path.of(reportFile), Json.write(report.toJson()) + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println("signalman replay: cannot write the report: " + e.getMessage());
                return 1;
            }
        }
        if (!a.has("accept")) {
            return report.passed() ? 0 : 1;
        }
        return accept(report, replayer, out, err);
    }

    private static int accept(ReplayReport report, Replayer replayer, PrintStream out, PrintStream err) {
        if (!report.violations().isEmpty()) {
            err.println("signalman replay: not accepting: the candidate rules break invariants (see above)");
            return 1;
        }
        if (report.changes().isEmpty()) {
            out.println("nothing to accept: no decision changed");
            return 0;
        }
        try {
            for (Map.Entry<Path, List<String>> file : replayer.acceptedLines().entrySet()) {
                Path tmp = file.getKey().resolveSibling(file.getKey().getFileName() + ".accept.tmp");
                Files.writeString(tmp, String.join("\n", file.getValue()) + "\n", StandardCharsets.UTF_8);
                Files.move(tmp, file.getKey(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            err.println("signalman replay: cannot rewrite the archive: " + e.getMessage());
            return 1;
        }
        out.printf("accepted %d changed decisions: the archive now records the candidate's decisions%n",
                report.changes().size());
        return 0;
    }

    private static RuleBundle compile(Path dir, String what, PrintStream err) {
        try {
            return Packs.compiler().compile(BundleFiles.read(dir));
        } catch (BundleException e) {
            for (BundleError x : e.errors()) {
                err.println(CheckCommand.located(dir, x, "error"));
            }
            err.println("signalman replay: the " + what + " rules in " + dir + " do not compile");
            return null;
        }
    }
}
