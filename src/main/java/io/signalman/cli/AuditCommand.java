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
 * a cluster's log as {@code GET /v1/audit?format=jsonl} gave it (the chain and MACs; an export
 * has no manifest to compare its length with).
 */
final class AuditCommand {

    private AuditCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("data", "export", AuditKeyOption.FLAG), Set.of(), env);
        if (a.positional().size() != 1 || !"verify".equals(a.positional().get(0))) {
            throw new Args.UsageException("audit takes verify");
        }
        String export = a.get("export", null);
        Path data = Path.of(export != null ? export : a.get("data", "data"));
        AuditKey key = AuditKeyOption.of(a, export != null ? Path.of(export).toAbsolutePath().getParent() : data);
        AuditVerify.Report report;
        try {
            report = export != null ? AuditVerify.checkExport(data, key) : AuditVerify.check(data, key);
        } catch (IOException | RuntimeException e) {
            err.println("signalman audit verify: cannot read " + data + ": " + e.getMessage());
            return 2;
        }
        report.notes().forEach(n -> out.println("note: " + n));
        report.problems().forEach(p -> out.println("problem: " + p));
        out.printf("signalman audit verify %s: %d entries, %s; %s%n", data, report.entries(), report.keyedFrom() == 0
                ? "not keyed" : "keyed from entry " + report.keyedFrom(), report.ok()
                ? "the chain is unbroken, head " + report.head()
                : report.keyProblem() != null ? "not proven: " + report.keyProblem()
                : report.problems().size() + " problem(s): the log was changed or cut short");
        return report.ok() ? 0 : 1;
    }
}
