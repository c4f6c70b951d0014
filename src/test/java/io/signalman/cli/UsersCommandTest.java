package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.datadir.DataDir;
import io.signalman.people.AuditLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code signalman users} and {@code signalman audit verify} on a data directory: a new token is
 * printed once, alone on the last line, and stored nowhere as itself; a rotation prints a new one;
 * a directory a server holds is refused; every change is in the audit log, whose chain verifies,
 * and a tampered line is caught with exit 1.
 */
class UsersCommandTest {

    @TempDir
    Path data;

    @Test
    void aUserIsAddedListedRotatedAndRemovedAndTheAuditLogVerifies() throws Exception {
        String d = data.toString();
        CliRunner.Result added = CliRunner.run("users", "add", "ana", "--role", "author,approver", "--data", d);
        assertEquals(0, added.code(), added.err());
        List<String> lines = added.out().lines().toList();
        String token = lines.get(lines.size() - 1);
        assertTrue(token.matches("smu\\.[0-9a-f]{24}\\.[A-Za-z0-9_-]{43}"), "the token alone on the last line: " + token);
        assertFalse(Files.readString(data.resolve("users.jsonl")).contains(token.substring(29)), "the secret is kept only as a hash");

        CliRunner.Result list = CliRunner.run("users", "list", "--data", d);
        assertTrue(list.out().contains("ana") && list.out().contains("author,approver"), list.out());
        assertFalse(list.out().contains("smu."), "a list shows no token");

        CliRunner.Result rotated = CliRunner.run("users", "rotate", "ana", "--data", d);
        assertEquals(0, rotated.code(), rotated.err());
        List<String> r = rotated.out().lines().toList();
        assertFalse(r.get(r.size() - 1).equals(token));
        assertEquals(1, CliRunner.run("users", "add", "ana", "--role", "viewer", "--data", d).code(), "the name is taken");
        assertEquals(2, CliRunner.run("users", "add", "bo", "--role", "superuser", "--data", d).code(), "no such role");
        assertEquals(0, CliRunner.run("users", "remove", "ana", "--data", d).code());
        assertFalse(CliRunner.run("users", "list", "--data", d).out().contains("ana "));

        CliRunner.Result verified = CliRunner.run("audit", "verify", "--data", d);
        assertEquals(0, verified.code(), verified.out());
        assertTrue(verified.out().contains("3 entries, not keyed; the chain is unbroken"), verified.out());

        Path audit = data.resolve(AuditLog.FILE);
        Files.writeString(audit, Files.readString(audit).replace("\"subject\":\"ana\"", "\"subject\":\"eve\""));
        CliRunner.Result tampered = CliRunner.run("audit", "verify", "--data", d);
        assertEquals(1, tampered.code(), tampered.out());
        assertTrue(tampered.out().contains("problem:"), tampered.out());
    }

    @Test
    void aDataDirectoryAServerHoldsIsRefused() {
        try (DataDir held = DataDir.open(data, false)) {
            CliRunner.Result r = CliRunner.run("users", "add", "ana", "--role", "author", "--data", data.toString());
            assertEquals(1, r.code());
            assertFalse(r.out().contains("smu."), "no token for a change that was not made");
            assertFalse(Files.exists(data.resolve("users.jsonl")));
        }
    }
}
