package io.signalman.cli;

import io.signalman.people.AuditVerify;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman audit verify [--data DIR]}: proves the audit log's hash chain unbroken
 * ({@link AuditVerify}), changing nothing, so it may run beside a server. Exit 0 when the chain
 * holds (the head, the newest entry's hash, is printed to be kept elsewhere), 1 naming each break.
 */
final class AuditCommand {

    private AuditCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("data"), Set.of(), env);
        if (a.positional().size() != 1 || !"verify".equals(a.positional().get(0))) {
            throw new Args.UsageException("audit takes verify");
        }
        Path data = Path.of(a.get("data", "data"));
        AuditVerify.Report report;
        try {
            report = AuditVerify.check(data);
        } catch (IOException | RuntimeException e) {
            err.println("signalman audit verify: cannot read " + data + ": " + e.getMessage());
            return 2;
        }
        report.notes().forEach(n -> out.println("note: " + n));
        report.problems().forEach(p -> out.println("problem: " + p));
        out.printf("signalman audit verify %s: %d entries; %s%n", data, report.entries(), report.ok()
                ? "the chain is unbroken, head " + report.head() : report.problems().size() + " problem(s): the log was changed");
        return report.ok() ? 0 : 1;
    }
}
