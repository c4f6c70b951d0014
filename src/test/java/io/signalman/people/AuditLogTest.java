package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.DataDirRefused;
import io.signalman.datadir.Disk;
import io.signalman.datadir.LogHead;
import io.signalman.datadir.Manifest;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit log as a start opens it, in a real data directory (its manifest recording the log's
 * length and head): a log that does not verify is refused naming its file and first bad line,
 * unless the loss is accepted, which cuts it there, sets the rest aside and records the loss;
 * approvals count only from entries that verified, and with a key only from keyed ones; an unkeyed
 * log is refused by a start with a key, keyed only on purpose from a marked point, and stays
 * verifiable; a directory a keyed start creates is keyed from its first entry; a stop between an entry and the
 * manifest's record of it is not taken for tampering; a keyed log is never opened without its key.
 */
class AuditLogTest {

    private static final Principal BO = new Principal("bo", EnumSet.of(Role.APPROVER), "token");
    private static final Principal CY = new Principal("cy", EnumSet.of(Role.APPROVER), "token");
    private static final String HASH = "sha256:draft-content";

    @TempDir
    Path dir;

    private Path data() {
        return dir.resolve("data");
    }

    @Test
    void aLogThatDoesNotVerifyIsRefusedNamingItsFileAndFirstBadLine() throws Exception {
        // Given a keyed log whose second and third entries were swapped
        AuditKey key = AuditKey.of(new byte[32]);
        withPeople(key, false, p -> approveTwice(p));
        AuditForger.of(data()).swap(1, 2).reseal(false);

        // When a start opens it, Then it is refused, naming the line and the way out
        DataDirRefused e = assertThrows(DataDirRefused.class, () -> withPeople(key, false, p -> { }));
        assertTrue(e.getMessage().contains("audit.jsonl line 2"), e.getMessage());
        assertTrue(e.getMessage().contains("--accept-data-loss to keep the 1 entries before audit.jsonl line 2"), e.getMessage());
    }

    @Test
    void acceptingTheLossCutsTheLogBeforeItsFirstBadEntryRecordsItAndCountsNoApprovalFromWhatWasCut() throws Exception {
        // Given a keyed log holding two approvals of draft d, the first of them forged (edited and re-sealed)
        AuditKey key = AuditKey.of(new byte[32]);
        withPeople(key, false, p -> approveTwice(p));
        withPeople(key, false, p -> assertEquals(2, approvals(p)));
        AuditForger forger = AuditForger.of(data());
        forger.entries().get(1).put("user", "eve");
        forger.reseal(false);

        // When a start accepts the loss
        withPeople(key, true, p -> {
            // Then only the entry before the forgery is kept, the loss is recorded, and neither approval counts
            List<JsonNode> entries = p.audit().entries();
            assertEquals(List.of("user_added", "audit_loss_accepted"), entries.stream().map(e -> e.get("action").asText()).toList());
            assertTrue(entries.get(1).get("problems").get(0).asText().contains("audit.jsonl line 2"), entries.get(1).toString());
            assertEquals(0, approvals(p));
        });
        // ... the rest is kept aside, and the log verifies again
        try (Stream<Path> aside = Files.walk(data().resolve("set-aside"))) {
            assertTrue(aside.anyMatch(f -> f.getFileName().toString().startsWith("audit.jsonl.from-")));
        }
        AuditVerify.Report r = AuditVerify.check(data(), key);
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(2, r.entries());
    }

    @Test
    void anUnkeyedLogIsKeyedOnlyOnPurposeFromAMarkedPointStaysVerifiableAndItsUnkeyedApprovalsNoLongerCount() throws Exception {
        // Given a log written without a key (as every log was before keys), holding two approvals
        withPeople(null, false, p -> approveTwice(p));
        withPeople(null, false, p -> assertEquals(2, approvals(p)));

        // When a start with a key opens it, Then it is refused: it looks just like a keyed log stripped of its MACs
        AuditKey key = AuditKey.of(new byte[32]);
        DataDirRefused refused = assertThrows(DataDirRefused.class, () -> withPeople(key, false, p -> { }));
        assertTrue(refused.getMessage().contains("this log is not keyed, but a key was given"), refused.getMessage());
        assertTrue(refused.getMessage().contains("signalman audit key --data " + data()), refused.getMessage());
        assertTrue(AuditVerify.check(data(), null).ok(), "the refusal changed nothing");

        // When it is keyed on purpose
        AuditLog.Keyed keyed;
        try (DataDir d = DataDir.open(data(), false)) {
            keyed = AuditLog.key(data(), Writing.of(d, Disk.REAL, new Storage(Disk.REAL)), AuditLog.ROLL_BYTES, key, BO);
        }
        assertEquals(3, keyed.before());
        assertEquals(4, keyed.from());
        withPeople(key, false, p -> {
            // Then an entry marks where keying begins, and the unkeyed approvals do not count (they could be forged)
            JsonNode marker = p.audit().entries().get(3);
            assertEquals("audit_keyed", marker.get("action").asText());
            assertEquals(key.id(), marker.get("key").asText());
            assertEquals(keyed.headBefore(), marker.get("head_before").asText());
            assertEquals(0, approvals(p));
            // ... while an approval given now does
            p.record(BO, Approvals.APPROVED, Json.object().put("draft", "d").put("content_hash", HASH).put("note", "again"));
            assertEquals(1, approvals(p));
        });

        // ... the log verifies with the key, keyed from the marker on
        AuditVerify.Report r = AuditVerify.check(data(), key);
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(4, r.keyedFrom());
        assertEquals(5, r.entries());
        // ... and it is keyed once: keying it again is refused
        try (DataDir d = DataDir.open(data(), false)) {
            DataDirRefused again = assertThrows(DataDirRefused.class, () -> AuditLog.key(data(),
                    Writing.of(d, Disk.REAL, new Storage(Disk.REAL)), AuditLog.ROLL_BYTES, key, BO));
            assertTrue(again.getMessage().contains("is keyed already"), again.getMessage());
        }
    }

    @Test
    void aStartWithAKeyKeysTheLogOfADirectoryItCreatesFromTheFirstEntry() throws Exception {
        AuditKey key = AuditKey.of(new byte[32]);
        withPeople(key, false, p -> approveTwice(p));

        AuditVerify.Report r = AuditVerify.check(data(), key);
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(1, r.keyedFrom());
        assertEquals(key.id(), Manifest.existing(data()).head(AuditVerify.LOG).key());
        withPeople(key, false, p -> assertEquals(2, approvals(p)));
    }

    @Test
    void aStartWithAKeyRefusesADirectoryThatHoldsSomethingButNoKeyedRecordOfItsLog() throws Exception {
        // Given a directory a keyless start made (its log empty) and one holding a stray file before its first start
        withPeople(null, false, p -> { });
        AuditKey key = AuditKey.of(new byte[32]);
        DataDirRefused empty = assertThrows(DataDirRefused.class, () -> withPeople(key, false, p -> { }));
        assertTrue(empty.getMessage().contains("the manifest's record of the audit log is not keyed, but a key was given"),
                empty.getMessage());

        Path other = dir.resolve("other");
        Files.createDirectories(other);
        Files.writeString(other.resolve("notes.txt"), "kept here");
        try (DataDir d = DataDir.open(other, false)) {
            DataDirRefused stray = assertThrows(DataDirRefused.class, () -> People.open(other, Writing.of(d, Disk.REAL,
                    new Storage(Disk.REAL)), PeopleConfig.defaults().withAuditKey(key), null, "admin", null, null, false));
            assertTrue(stray.getMessage().contains("the manifest holds no record of the audit log, but a key was given"),
                    stray.getMessage());
        }
    }

    @Test
    void aKeyedLogIsRefusedWithoutItsKeyOrWithAnotherEvenAcceptingLoss() throws Exception {
        AuditKey key = AuditKey.of(new byte[32]);
        withPeople(key, false, p -> approveTwice(p));

        DataDirRefused none = assertThrows(DataDirRefused.class, () -> withPeople(null, true, p -> { }));
        assertTrue(none.getMessage().contains("this log is keyed (key id " + key.id() + ") from entry 1 on: give --audit-key-file"),
                none.getMessage());
        byte[] other = new byte[32];
        other[0] = 1;
        DataDirRefused wrong = assertThrows(DataDirRefused.class, () -> withPeople(AuditKey.of(other), true, p -> { }));
        assertTrue(wrong.getMessage().contains("but the key given has id " + AuditKey.of(other).id()), wrong.getMessage());
        assertTrue(AuditVerify.check(data(), key).ok(), "nothing was cut");
    }

    @Test
    void aStopBetweenAnEntryAndTheManifestsRecordOfItIsNotTakenForTampering() throws Exception {
        // Given a keyed log, and the manifest as it was before its last entry (a kill -9 between the two writes)
        AuditKey key = AuditKey.of(new byte[32]);
        withPeople(key, false, p -> p.record(BO, "user_added", Json.object().put("subject", "cy")));
        Path before = dir.resolve("manifest-before");
        Files.copy(data().resolve(Manifest.NAME), before);
        withPeople(key, false, p -> p.record(BO, "user_added", Json.object().put("subject", "dee")));
        Files.copy(before, data().resolve(Manifest.NAME), StandardCopyOption.REPLACE_EXISTING);

        // When it is verified, Then the log is ahead of its record: a note, not a problem
        AuditVerify.Report r = AuditVerify.check(data(), key);
        assertTrue(r.ok(), r.problems().toString());
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("runs 1 entries past the manifest's record")), r.notes().toString());

        // ... and the next start brings the record forward
        withPeople(key, false, p -> { });
        LogHead head = Manifest.existing(data()).head(AuditVerify.LOG);
        assertEquals(2, head.entries());
        assertEquals(key.id(), head.key());
    }

    private static void approveTwice(People p) {
        p.record(BO, "user_added", Json.object().put("subject", "cy"));
        p.record(BO, Approvals.APPROVED, Json.object().put("draft", "d").put("content_hash", HASH).put("note", "fine"));
        p.record(CY, Approvals.APPROVED, Json.object().put("draft", "d").put("content_hash", HASH).put("note", "fine too"));
    }

    private static int approvals(People p) {
        return p.approvals().standing("d", HASH, Set.of("ana"), 2).approvals().size();
    }

    /** Opens the data directory and its people as a start does, runs {@code body}, and closes both. */
    private void withPeople(AuditKey key, boolean acceptLoss, java.util.function.Consumer<People> body) {
        try (DataDir d = DataDir.open(data(), acceptLoss);
             People p = People.open(data(), Writing.of(d, Disk.REAL, new Storage(Disk.REAL)),
                     PeopleConfig.defaults().withAuditKey(key), null, "admin", null, null, acceptLoss)) {
            body.accept(p);
        }
    }
}
