package io.signalman.cli;

import io.signalman.packs.Packs;
import io.signalman.people.AuditKey;
import io.signalman.people.AuditVerify;
import io.signalman.packs.StateSpecs;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Verify;
import io.signalman.datadir.Writing;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.fsm.FsmService;
import io.signalman.fsm.OrphanGate;
import io.signalman.state.LocalState;
import io.signalman.state.StateConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman data verify --data DIR [--rules DIR] [--audit-key-file FILE]}: checks a data
 * directory offline, changing nothing: the manifest against the disk, every complete file's length
 * and checksum, every record's checksum ({@link Verify}); the audit log as a start proves it, its
 * chain, its MACs under the key and its length and head against the manifest ({@link AuditVerify});
 * then, with the rules, that every FSM instance the directory holds is in a state its machine has,
 * naming the record it comes from. Exit 0 when a start would find it whole, 1 with every problem listed.
 */
final class DataCommand {

    private DataCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("data", "rules", AuditKeyOption.FLAG), Set.of(), env);
        if (a.positional().size() != 1 || !"verify".equals(a.positional().get(0))) {
            throw new Args.UsageException("data takes verify");
        }
        Path data = Path.of(a.get("data", "data"));
        Path rules = Path.of(a.get("rules", "rules"));
        AuditKey key = AuditKeyOption.of(a, data);
        Verify.Report report;
        AuditVerify.Report audit = null;
        try {
            report = Verify.check(data);
            if (report.ok()) {
                audit = AuditVerify.check(data, key);
            }
        } catch (IOException | RuntimeException e) {
            err.println("signalman data verify: cannot read " + data + ": " + e.getMessage());
            return 2;
        }
        List<String> problems = new java.util.ArrayList<>(report.problems());
        report.notes().forEach(n -> out.println("note: " + n));
        if (audit != null) {
            audit.notes().forEach(n -> out.println("note: audit log: " + n));
            audit.problems().forEach(p -> problems.add("audit log: " + p));
        }
        if (problems.isEmpty()) {
            problems.addAll(fsmStates(data, rules, a.get("rules", null) != null, out));
        }
        problems.forEach(p -> out.println("problem: " + p));
        out.printf("signalman data verify %s: %d files, %d records checked; %s%n", data, report.files(), report.records(),
                problems.isEmpty() ? "whole" : problems.size() + " problem(s)");
        return problems.isEmpty() ? 0 : 1;
    }

    /** The FSM instances whose state their machine (in {@code rules}) lacks; skipped without rules. */
    private static List<String> fsmStates(Path data, Path rules, boolean asked, PrintStream out) {
        if (!Files.isDirectory(rules) || !Files.isDirectory(data.resolve("state"))) {
            if (asked) {
                return List.of("no rules folder " + rules + " to check the FSM instances' states against");
            }
            out.println("note: no rules folder " + rules + " here: FSM instances' states not checked (give --rules DIR)");
            return List.of();
        }
        RuleBundle bundle;
        try {
            bundle = Packs.compiler().compile(BundleFiles.read(rules));
        } catch (BundleException e) {
            return e.errors().stream().map(BundleError::toString).map(s -> "the rules in " + rules + " do not compile: " + s)
                    .toList();
        }
        Writing reading = new Writing(Disk.REAL, new Storage(Disk.REAL), FileRegistry.NONE, DataDir.legacyFiles(data));
        LocalState state = LocalState.openOffline(StateConfig.defaults(), StateSpecs.all(() -> bundle), data.resolve("state"),
                data.resolve("decisions"), true, reading);
        OrphanGate gate = new OrphanGate(state.stores().named(FsmService.STORE), ids -> state.locate(FsmService.STORE, ids));
        return gate.check(bundle).stream().map(BundleError::message).toList();
    }
}
