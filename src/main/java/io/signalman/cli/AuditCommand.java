package io.signalman.cli;

import io.signalman.people.AuditKey;
import io.signalman.people.AuditVerify;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
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
        if (a.positional().size() != 1 || !"verify".equals(a.positional().get(0))) {
            throw new Args.UsageException("audit takes verify");
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
}
