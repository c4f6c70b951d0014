package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit log's chain: a log as written verifies; a line edited in place fails at that line
 * (its checksum), and an edit whose checksum is made to match again still fails, at the next
 * entry (whose prev no longer matches); a line removed fails too. The chain runs on across a roll.
 * Keyed: an unkeyed entry after keyed ones is caught, and so is a keyed log rewritten as an
 * unkeyed one, by the manifest's keyed record of it.
 */
class AuditVerifyTest {

    private static final Principal ANA = new Principal("ana", EnumSet.of(Role.APPROVER), "token");

    @TempDir
    Path data;

    @Test
    void aLogAsWrittenVerifiesAndNamesItsHead() throws Exception {
        AuditLog log = written(3);

        AuditVerify.Report r = AuditVerify.check(data);

        assertTrue(r.ok(), r.problems().toString());
        assertEquals(3, r.entries());
        assertEquals(log.head(), r.head());
    }

    @Test
    void aLineEditedInPlaceIsCaught() throws Exception {
        written(3);
        Path file = data.resolve(AuditLog.FILE);
        List<String> lines = Files.readAllLines(file);
        assertTrue(lines.get(1).contains("\"note\":\"note 2\""), lines.get(1));
        lines.set(1, lines.get(1).replace("note 2", "note X"));
        Files.write(file, lines);

        AuditVerify.Report r = AuditVerify.check(data);

        assertFalse(r.ok());
        assertTrue(r.problems().get(0).contains("line 2"), r.problems().toString());
    }

    @Test
    void anEditWithItsChecksumMadeToMatchStillBreaksTheChainAtTheNextEntry() throws Exception {
        written(3);
        Path file = data.resolve(AuditLog.FILE);
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        byte[] unsealed = RecordLine.unseal(lines.get(1).getBytes(StandardCharsets.UTF_8), 0, lines.get(1).length());
        String forged = new String(unsealed, StandardCharsets.UTF_8).replace("\"user\":\"ana\"", "\"user\":\"bob\"");
        lines.set(1, new String(RecordLine.seal(forged.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8).strip());
        Files.write(file, lines);

        AuditVerify.Report r = AuditVerify.check(data);

        assertFalse(r.ok());
        assertEquals(1, r.problems().size(), r.problems().toString());
        assertTrue(r.problems().get(0).contains("line 3") && r.problems().get(0).contains("prev"), r.problems().toString());
    }

    @Test
    void aRemovedLineIsCaught() throws Exception {
        written(3);
        Path file = data.resolve(AuditLog.FILE);
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.remove(1);
        Files.write(file, lines);

        assertFalse(AuditVerify.check(data).ok());
    }

    @Test
    void theChainRunsOnAcrossARolledFile() throws Exception {
        AuditLog log = AuditLog.open(data, Writing.plain(), 1024);
        for (int i = 1; i <= 12; i++) {
            log.append(ANA, "draft_approved", Json.object().put("draft", "d" + i).put("note", "a note long enough to roll " + i));
        }
        log.close();
        assertTrue(Files.list(data.resolve(AuditLog.ROLLED)).findAny().isPresent(), "the log rolled");

        AuditVerify.Report r = AuditVerify.check(data);

        assertTrue(r.ok(), r.problems().toString());
        assertEquals(12, r.entries());
        assertEquals(12, AuditLog.open(data, Writing.plain(), 1024).entries().size(), "every entry is read back, rolled ones too");
    }

    @Test
    void anUnkeyedEntryAfterKeyedOnesIsCaught() throws Exception {
        // Given a keyed log, and an entry added after it without the key, chained and sealed as an unkeyed one is
        AuditKey key = AuditKey.of(new byte[32]);
        AuditLog log = AuditLog.open(data, Writing.plain(), AuditLog.ROLL_BYTES, key, false);
        log.append(ANA, "user_added", Json.object().put("subject", "bo"));
        log.close();
        byte[] forged = Json.bytes(Json.object().put("seq", 2).put("at", "2026-01-01T00:00:00Z").put("user", "eve")
                .put("via", "token").put("action", "draft_approved").put("draft", "d").put("prev", log.head()));
        Files.write(data.resolve(AuditLog.FILE), RecordLine.seal(forged), java.nio.file.StandardOpenOption.APPEND);

        AuditVerify.Report r = AuditVerify.check(data, key);

        assertFalse(r.ok());
        assertTrue(r.problems().get(0).contains("line 2: is not keyed, though the log is keyed from entry 1 on"),
                r.problems().toString());
    }

    @Test
    void aKeyedLogStrippedOfItsKeysAndReChainedFailsAgainstTheManifestsKeyedRecord() throws Exception {
        // Given a keyed log in a data directory, rewritten as an unkeyed one: keys and MACs taken off, re-chained
        AuditKey key = AuditKey.of(new byte[32]);
        try (io.signalman.datadir.DataDir dir = io.signalman.datadir.DataDir.open(data, false)) {
            AuditLog log = AuditLog.open(data, Writing.of(dir, io.signalman.datadir.Disk.REAL,
                    new io.signalman.datadir.Storage(io.signalman.datadir.Disk.REAL)), AuditLog.ROLL_BYTES, key, false);
            for (int i = 1; i <= 3; i++) {
                log.append(ANA, "draft_approved", Json.object().put("draft", "d").put("note", "note " + i));
            }
            log.close();
        }
        AuditForger f = AuditForger.of(data);
        f.entries().forEach(e -> e.remove(List.of("key", "mac")));
        f.reseal(false);
        AuditForger.matchManifest(data);

        AuditVerify.Report r = AuditVerify.check(data, key);

        assertFalse(r.ok());
        assertTrue(r.problems().stream().anyMatch(p -> p.contains("the manifest's record of the audit log (3 entries")
                && p.contains("does not match its MAC")), r.problems().toString());
    }

    private AuditLog written(int n) {
        AuditLog log = AuditLog.open(data, Writing.plain(), AuditLog.ROLL_BYTES);
        for (int i = 1; i <= n; i++) {
            log.append(ANA, "draft_approved", Json.object().put("draft", "d").put("note", "note " + i));
        }
        log.close();
        return log;
    }
}
