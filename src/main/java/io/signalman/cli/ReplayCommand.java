package io.signalman.cli;

import io.signalman.packs.Packs;
import io.signalman.cluster.ClusterConfig;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.replay.Accept;
import io.signalman.replay.Archive;
import io.signalman.replay.Determinism;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.ReplayRequest;
import io.signalman.replay.Replayer;
import io.signalman.replay.Selection;
import io.signalman.replay.cluster.ClusterReplay;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code signalman replay [--rules DIR] [--baseline DIR] [--report FILE.json] [--accept]
 * [--threads N] [--since T] [--until T] [--pack NAME]... [--sample RATE] [--determinism all|sample] [--quiet]
 * ARCHIVE...}. Exit 0 only when records were replayed, nothing changed, no invariant broke and
 * every record was read; 1 otherwise; 2 for a usage error or an archive argument in which no
 * record could be read. Determinism (deciding a record twice) is checked on a sample of records
 * unless {@code --determinism all} says every one. With {@code --accept}, the changes are shown
 * and then written into the archive files as the new recorded decisions (refused if an invariant
 * breaks on any record: accepting always checks determinism on every one).
 */
final class ReplayCommand {

    static final Set<String> VALUED = Set.of("rules", "baseline", "report", "threads", "since", "until", "pack", "sample",
            "members", "arm", "determinism");
    static final Set<String> BOOLEANS = Set.of("accept", "quiet");

    private ReplayCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, BudgetFlags.with(VALUED), BOOLEANS, env);
        BudgetFlags.apply(a);
        if (a.positional().isEmpty()) {
            throw new Args.UsageException("replay needs at least one ARCHIVE (" + Archive.KINDS + ", or a folder of them)");
        }
        Selection selection = selection(a);
        int threads = a.getInt("threads", Runtime.getRuntime().availableProcessors());
        if (threads < 1) {
            throw new Args.UsageException("--threads must be at least 1");
        }
        Determinism determinism = determinism(a);
        String members = a.get("members", null);
        if (members != null) {
            return onCluster(a, members, selection, determinism, out, err);
        }
        Archive archive;
        for (String argument : a.positional()) {
            if (Archive.dataDirectory(Path.of(argument))) {
                if (a.has("accept")) {
                    throw new Args.UsageException("--accept rewrites a golden history, not a server's decision log ("
                            + argument + " is a data directory, whose manifest would then refuse it at the next start)");
                }
                err.println("signalman replay: " + argument + " is a data directory: replaying its decision log, "
                        + Path.of(argument).resolve("decisions"));
            }
        }
        try {
            archive = Archive.read(a.positional().stream().map(Path::of).toList());
        } catch (IOException e) {
            err.println("signalman replay: " + e.getMessage());
            return 2;
        }
        RuleBundle candidate = compile(Path.of(a.get("rules", "rules")), "candidate", err);
        String baselineDir = a.get("baseline", null);
        RuleBundle baseline = baselineDir == null ? null : compile(Path.of(baselineDir), "baseline", err);
        if (candidate == null || baselineDir != null && baseline == null) {
            return 1;
        }
        ReplayRequest request = new ReplayRequest(candidate, baseline, archive, selection, threads,
                TerminalProgress.forReplay(a.has("quiet"), archive.bytes(), err), determinism);
        ReplayReport report = Replayer.run(request);
        int code = report(a, report, false, out, err);
        if (code != 0 || !a.has("accept")) {
            return code;
        }
        return accept(report, candidate, archive, selection, out, err);
    }

    /** Prints and writes the report; the exit code unless accepting (2 when an argument held no record). */
    private static int report(Args a, ReplayReport report, boolean absolute, PrintStream out, PrintStream err) {
        out.print(report.toText());
        if (!writeReport(a.get("report", null), report, err)) {
            return 1;
        }
        for (String argument : a.positional()) {
            Path p = Path.of(argument);
            String key = (absolute ? p.toAbsolutePath().normalize() : p).toString();
            if (report.readByArgument().getOrDefault(key, 0L) == 0) {
                err.println("signalman replay: no record could be read in " + argument + " (replay reads " + Archive.KINDS + ")");
                return 2;
            }
        }
        return a.has("accept") || report.passed() ? 0 : 1;
    }

    /** {@code --members}: the same replay as a Jet job over the cluster's members (see {@link ClusterReplay}). */
    private static int onCluster(Args a, String members, Selection selection, Determinism determinism, PrintStream out,
                                 PrintStream err) throws Args.UsageException {
        if (a.has("accept")) {
            throw new Args.UsageException("--accept rewrites files and runs on one machine: leave out --members");
        }
        List<String> list;
        try {
            list = ClusterConfig.parseMembers(members);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException("--members: " + e.getMessage());
        }
        String baseline = a.get("baseline", null);
        ReplayReport report;
        try {
            report = ClusterReplay.run(list, Path.of(a.get("rules", "rules")), baseline == null ? null : Path.of(baseline),
                    a.positional().stream().map(Path::of).toList(), selection, determinism);
        } catch (RuntimeException e) {
            err.println("signalman replay: the cluster replay failed: " + e.getMessage());
            return 1;
        }
        return report(a, report, true, out, err);
    }

    /**
     * {@code --determinism all|sample} (default sample). {@code --accept} writes the candidate's
     * decisions into the history as the truth, so it checks every record and refuses to be told
     * to sample: a rule that decides one record two ways must not be recorded as either.
     */
    private static Determinism determinism(Args a) throws Args.UsageException {
        String given = a.get("determinism", null);
        Determinism d;
        try {
            d = given == null ? Determinism.SAMPLE : Determinism.of(given);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        if (!a.has("accept")) {
            return d;
        }
        if (given != null && d != Determinism.ALL) {
            throw new Args.UsageException("--accept checks determinism on every record: leave out --determinism " + d.flag());
        }
        return Determinism.ALL;
    }

    private static Selection selection(Args a) throws Args.UsageException {
        try {
            Set<String> packs = new TreeSet<>();
            for (String p : a.all("pack")) {
                packs.addAll(Arrays.stream(p.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
            }
            for (String p : packs) {
                if (Packs.named(p).isEmpty()) {
                    throw new Args.UsageException("--pack " + p + ": no such pack (packs are "
                            + Packs.all().stream().map(x -> x.name()).toList() + ")");
                }
            }
            String sample = a.get("sample", "1");
            double rate;
            try {
                rate = Double.parseDouble(sample.trim());
            } catch (NumberFormatException e) {
                throw new Args.UsageException("--sample must be a rate with 0 < RATE <= 1, not \"" + sample + "\"");
            }
            return new Selection(Selection.instant("since", a.get("since", null)), Selection.instant("until", a.get("until", null)),
                    packs, rate, a.get("arm", null));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    private static boolean writeReport(String reportFile, ReplayReport report, PrintStream err) {
        if (reportFile == null) {
            return true;
        }
        try {
            Files.writeString(Path.of(reportFile), Json.write(report.toJson()) + "\n", StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            err.println("signalman replay: cannot write the report: " + e.getMessage());
            return false;
        }
    }

    private static int accept(ReplayReport report, RuleBundle candidate, Archive archive, Selection selection, PrintStream out,
                              PrintStream err) {
        if (report.counts().violationCount() > 0) {
            err.println("signalman replay: not accepting: the candidate rules break invariants (see above)");
            return 1;
        }
        if (report.counts().changed() == 0) {
            out.println("nothing to accept: no decision changed");
            return 0;
        }
        long rewritten;
        try {
            rewritten = Accept.rewrite(candidate, archive, selection);
        } catch (IOException e) {
            err.println("signalman replay: cannot rewrite the archive: " + e.getMessage());
            return 1;
        }
        out.printf("accepted %d changed decisions: the archive now records the candidate's decisions"
                + " (unchanged records are left as they were)%n", rewritten);
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
