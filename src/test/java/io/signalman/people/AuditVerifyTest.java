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

    private AuditLog written(int n) {
        AuditLog log = AuditLog.open(data, Writing.plain(), AuditLog.ROLL_BYTES);
        for (int i = 1; i <= n; i++) {
            log.append(ANA, "draft_approved", Json.object().put("draft", "d").put("note", "note " + i));
        }
        log.close();
        return log;
    }
}
