package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.people.AuditForger;
import io.signalman.people.AuditLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38.7 through real {@code serve} processes: a server without an audit key warns that the log
 * guards against accidents only; a command given the key refuses the log it leaves, until
 * {@code signalman audit key} keys it from a marked point (once), after which verify without the key
 * says the log is keyed; a keyed log with two lines swapped refuses the start, naming the file and
 * line, until the loss is accepted, which the log then records, and it verifies again. Two full
 * starts: the refused one stops before any rule is compiled.
 */
class AuditKeyProcessTest {

    private static final String UNKEYED = "the audit log is not keyed (no --audit-key-file): it guards against accidents only";

    @TempDir
    Path dir;

    @Test
    void anUnkeyedServerWarnsAndAKeyedLogOnceTamperedIsRefusedUntilTheLossIsAcceptedAndRecorded() throws Exception {
        Path data = dir.resolve("data");
        Path key = AuditForger.keyFile(dir.resolve("audit.key"));
        String d = data.toString();
        assertEquals(0, CliRunner.run("users", "add", "ana", "--role", "approver", "--data", d).code());

        // An unkeyed server says so at start
        try (ServeProcess unkeyed = ServeProcess.start(data, Map.of())) {
            assertTrue(unkeyed.printed(UNKEYED), unkeyed.output());
            unkeyed.process().destroy();
            assertEquals(0, unkeyed.waitFor(Duration.ofSeconds(60)), unkeyed.output());
        }

        // A command with the key refuses the unkeyed log (it could be a keyed one stripped of its MACs) ...
        CliRunner.Result unkeyed = CliRunner.run("users", "add", "bo", "--role", "author", "--data", d, "--audit-key-file",
                key.toString());
        assertEquals(1, unkeyed.code(), unkeyed.err());
        assertTrue(unkeyed.err().contains("this log is not keyed, but a key was given"), unkeyed.err());
        // ... until it is keyed on purpose, from a marked point on, naming the unkeyed entries' head to compare
        CliRunner.Result keying = CliRunner.run("audit", "key", "--data", d, "--audit-key-file", key.toString());
        assertEquals(0, keying.code(), keying.err());
        assertTrue(keying.out().contains("keyed from entry 2 on"), keying.out());
        assertTrue(keying.out().contains("the 1 entries before are chained, not keyed"), keying.out());
        CliRunner.Result twice = CliRunner.run("audit", "key", "--data", d, "--audit-key-file", key.toString());
        assertEquals(1, twice.code(), twice.out());
        assertTrue(twice.err().contains("is keyed already from entry 2 on"), twice.err());
        assertEquals(0, CliRunner.run("users", "add", "bo", "--role", "author", "--data", d, "--audit-key-file", key.toString())
                .code());
        CliRunner.Result keyed = CliRunner.run("audit", "verify", "--data", d, "--audit-key-file", key.toString());
        assertEquals(0, keyed.code(), keyed.out());
        assertTrue(keyed.out().contains("3 entries, keyed from entry 2; the chain is unbroken"), keyed.out());
        CliRunner.Result keyless = CliRunner.run("audit", "verify", "--data", d);
        assertEquals(1, keyless.code(), keyless.out());
        assertTrue(keyless.out().contains("this log is keyed (key id "), keyless.out());

        // Two lines swapped: the start is refused, naming the file and line
        Path log = data.resolve(AuditLog.FILE);
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(log));
        Collections.swap(lines, 1, 2);
        Files.write(log, lines);
        Map<String, String> env = Map.of("SIGNALMAN_AUDIT_KEY_FILE", key.toString());
        try (ServeProcess refused = ServeProcess.launch(data, env)) {
            assertEquals(1, refused.waitFor(Duration.ofSeconds(60)), refused.output());
            assertTrue(refused.output().contains("signalman: cannot start: the audit log in " + data + " does not verify"),
                    refused.output());
            assertTrue(refused.output().contains("audit.jsonl line 2: entry 3 where entry 2 should be"), refused.output());
        }

        // ... until the loss is accepted: the log is cut before line 2, the loss recorded, and no warning (it is keyed)
        try (ServeProcess accepted = ServeProcess.start(data, env, "--accept-data-loss")) {
            assertTrue(accepted.printed("accepting the loss (--accept-data-loss): audit.jsonl line 2"), accepted.output());
            assertFalse(accepted.printed(UNKEYED), accepted.output());
            accepted.process().destroy();
            assertEquals(0, accepted.waitFor(Duration.ofSeconds(60)), accepted.output());
        }
        CliRunner.Result after = CliRunner.run("audit", "verify", "--data", d, "--audit-key-file", key.toString());
        assertEquals(0, after.code(), after.out());
        assertTrue(Files.readString(log).contains("\"action\":\"audit_loss_accepted\""), Files.readString(log));
    }
}
