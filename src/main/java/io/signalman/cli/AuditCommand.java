package io.signalman.cli;

import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.people.AuditKey;
import io.signalman.people.AuditLog;
import io.signalman.people.AuditVerify;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman audit key --data DIR --audit-key-file FILE}: keys an unkeyed log, once ({@link #key}).
 * {@code signalman audit verify [--data DIR | --export FILE] [--audit-key-file FILE]}: proves the audit log's chain
 * unbroken, its keyed entries' MACs under the key, and the log as long as the manifest last
 * recorded it ({@link AuditVerify}), changing nothing, so it may run beside a server. Exit 0 when
 * it holds (the head, the newest entry's chain value, is printed to be kept elsewhere), 1 naming
 * each break, or saying that the log is keyed and the key was not given. {@code --export} checks
 * a cluster's log as {@code GET /v1/audit?format=jsonl} gave it, {@code --state-jdbc URL} as the
 * cluster's PostgreSQL table holds it (the chain and MACs; neither has a manifest to compare its
 * length with).
 */
final class AuditCommand {

    private AuditCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("data", "export", "state-jdbc", AuditKeyOption.FLAG), Set.of(), env);
        if (a.positional().size() != 1 || !Set.of("verify", "key").contains(a.positional().get(0))) {
            throw new Args.UsageException("audit takes verify or key");
        }
        if ("key".equals(a.positional().get(0))) {
            return key(a, out, err);
        }
        String export = a.get("export", null);
        String jdbc = a.get("state-jdbc", null);
        if (jdbc != null) {
            // The cluster's log as the database holds it: written out as an export, and proved as one.
            try {
                java.nio.file.Path tmp = java.nio.file.Files.createTempFile("signalman-audit-", ".jsonl");
                tmp.toFile().deleteOnExit();
                java.nio.file.Files.write(tmp, new io.signalman.cluster.StateDatabase(jdbc, env).auditEntries());
                export = tmp.toString();
            } catch (IOException | RuntimeException e) {
                err.println("signalman audit verify: cannot read the audit log from " + jdbc + ": " + e.getMessage());
                return 2;
            }
        }
        Path data = Path.of(export != null ? export : a.get("data", "data"));
        // An export or a table has no data directory for the key to stay out of: the file itself stands in.
        AuditKey key = AuditKeyOption.of(a, data);
        AuditVerify.Report report;
        try {
            report = export != null ? AuditVerify.checkExport(data, key) : AuditVerify.check(data, key);
        } catch (IOException | RuntimeException e) {
            err.println("signalman audit verify: cannot read " + data + ": " + e.getMessage());
            return 2;
        }
        report.notes().forEach(n -> out.println("note: " + n));
        report.problems().forEach(p -> out.println("problem: " + p));
        out.printf("signalman audit verify %s: %d entries, %s; %s%n", jdbc != null ? "(the table at " + jdbc + ")" : data,
                report.entries(), report.keyedFrom() == 0
                ? "not keyed" : "keyed from entry " + report.keyedFrom(), report.ok()
                ? "the chain is unbroken, head " + report.head()
                : report.keyProblem() != null ? "not proven: " + report.keyProblem()
                : report.problems().size() + " problem(s): the log was changed or cut short");
        return report.ok() ? 0 : 1;
    }

    /**
     * {@code audit key --data DIR --audit-key-file FILE}: keys an unkeyed log from its next entry on
     * ({@link AuditLog#key}), with no server holding the directory. It prints the unkeyed entries'
     * count and head, which only a copy kept elsewhere can vouch for: a keyed log stripped of its
     * MACs looks the same to anyone who has only the directory.
     */
    private static int key(Args a, PrintStream out, PrintStream err) throws Args.UsageException {
        if (a.get("export", null) != null || a.get("state-jdbc", null) != null) {
            throw new Args.UsageException("audit key keys a data directory's log (--data): a cluster's log is keyed by its "
                    + "members, each given --audit-key-file");
        }
        Path data = Path.of(a.get("data", "data"));
        AuditKey key = AuditKeyOption.of(a, data);
        if (key == null) {
            throw new Args.UsageException("audit key needs --audit-key-file FILE (or SIGNALMAN_AUDIT_KEY_FILE): the key to key "
                    + "the log with");
        }
        Principal by = new Principal("cli:" + System.getProperty("user.name", "unknown"), EnumSet.of(Role.ADMIN), "cli");
        try (DataDir dir = DataDir.open(data, false)) {
            AuditLog.Keyed k = AuditLog.key(data, Writing.of(dir, Disk.REAL, new Storage(Disk.REAL)), AuditLog.ROLL_BYTES, key,
                    by);
            out.printf("signalman audit key %s: keyed from entry %d on (key id %s)%n", data, k.from(), k.keyId());
            if (k.before() > 0) {
                out.printf("the %d entries before are chained, not keyed, and their approvals no longer count; their head is %s:"
                        + " compare it with a copy kept elsewhere, since whoever could write %s could have rewritten them%n",
                        k.before(), k.headBefore(), data);
            }
            out.println("from now on give --audit-key-file to serve, users, audit verify and data verify");
            return 0;
        } catch (RuntimeException e) {
            err.println("signalman audit key: " + e.getMessage());
            return 1;
        }
    }
}
