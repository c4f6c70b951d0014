package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import io.signalman.people.AuditForger;
import io.signalman.people.AuditKey;
import io.signalman.people.AuditLog;
import io.signalman.people.People;
import io.signalman.people.PeopleConfig;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38.7, each edit of the issue made to a keyed audit log with the server stopped, by someone
 * without the key: the log edited and re-sealed, its last line deleted, truncated to zero,
 * deleted, an approval removed and the rest re-sealed, two lines swapped. Each fails
 * {@code signalman audit verify} with the key and refuses {@code signalman serve} (the refusal
 * comes before any rule is compiled, so these starts are cheap), and each still fails once the
 * manifest's record of the log is rewritten to match, since that record's MAC needs the key too.
 * The same re-sealed edit passes an unkeyed log, which is what makes the forgery a real one. A
 * keyed log downgraded (its MACs stripped, a forged approval added, re-chained unkeyed, the
 * manifest's record unkeyed or removed, or the manifest deleted) and one deleted or emptied with
 * its record are refused too: a start or verify with a key never takes a log that is not keyed.
 * {@code signalman data verify} names a log cut short or deleted, and a keyed log without its key.
 */
class AuditTamperTest {

    private static final Principal BO = new Principal("bo", EnumSet.of(Role.APPROVER), "token");
    private static final Principal CY = new Principal("cy", EnumSet.of(Role.APPROVER), "token");
    /** A record rewritten without the key: its count and head match the log, its MAC does not. */
    private static final String RECORD_FORGED = "the manifest's record of the audit log (";

    @TempDir
    Path dir;
    private Path data;
    private Path key;

    @BeforeEach
    void aKeyedLogOfFiveEntriesTwoOfThemApprovals() throws Exception {
        data = dir.resolve("data");
        key = AuditForger.keyFile(dir.resolve("audit.key"));
        write(data, AuditKey.load(key, data));
    }

    @Test
    void anEditReSealedWithTheUnkeyedAlgorithmFailsVerifyAndStart() {
        AuditForger f = AuditForger.of(data);
        f.entries().get(1).put("user", "eve");
        f.reseal(false);

        refused("audit.jsonl line 2: its MAC does not match", "audit.jsonl line 2", "audit.jsonl line 2: its MAC does not match");
    }

    @Test
    void theSameReSealedEditPassesAnUnkeyedLogWhichGuardsAgainstAccidentsOnly() throws Exception {
        Path unkeyed = dir.resolve("unkeyed");
        write(unkeyed, null);
        AuditForger f = AuditForger.of(unkeyed);
        f.entries().get(1).put("user", "eve");
        f.reseal(false);
        AuditForger.matchManifest(unkeyed);

        CliRunner.Result r = CliRunner.run("audit", "verify", "--data", unkeyed.toString());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("note: the log is not keyed: its chain guards against accidents only"), r.out());
    }

    @Test
    void theLastLineDeletedFailsVerifyAndStart() throws Exception {
        List<String> lines = Files.readAllLines(log());
        Files.write(log(), lines.subList(0, lines.size() - 1));

        refused("the audit log holds 4 entries, but the manifest recorded 5", "the manifest recorded 5", RECORD_FORGED);
    }

    @Test
    void theLogTruncatedToZeroFailsVerifyAndStart() throws Exception {
        Files.write(log(), new byte[0]);

        refused("the audit log holds 0 entries, but the manifest recorded 5", "the manifest recorded 5", RECORD_FORGED);
    }

    @Test
    void theLogDeletedFailsVerifyAndStart() throws Exception {
        Files.delete(log());

        refused("the audit log is missing (no audit.jsonl), but the manifest recorded 5 entries", "audit.jsonl is missing",
                RECORD_FORGED);
    }

    @Test
    void anApprovalRemovedAndTheRestReSealedFailsVerifyAndStart() {
        AuditForger f = AuditForger.of(data);
        assertEquals("draft_approved", f.entries().get(1).get("action").asText());
        f.entries().remove(1);
        f.reseal(true);

        refused("audit.jsonl line 2: its MAC does not match", "audit.jsonl line 2", RECORD_FORGED);
    }

    @Test
    void twoLinesSwappedFailVerifyAndStart() throws Exception {
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(log()));
        java.util.Collections.swap(lines, 1, 2);
        Files.write(log(), lines);

        refused("audit.jsonl line 2: entry 3 where entry 2 should be", "audit.jsonl line 2",
                "audit.jsonl line 2: entry 3 where entry 2 should be");
    }

    @Test
    void aKeyedLogDowngradedToUnkeyedWithAForgedApprovalAndItsRecordUnkeyedFailsVerifyAndStart()
            throws Exception {
        // Given the keyed log stripped of its MACs, a forged approval appended, all re-chained unkeyed, the record to match
        AuditForger f = AuditForger.of(data).unkey();
        ObjectNode forged = f.entries().get(1).deepCopy().put("seq", 6).put("user", "eve");
        f.entries().add(forged);
        f.reseal(false);
        AuditForger.downgradeManifest(data, false);

        // Then verify and a start with the key both refuse it, saying it may be a stripped log and how a real one is keyed
        downgradeRefused("this log is not keyed, but a key was given");
        // ... and no refused start keyed it meanwhile: it is refused again, just the same
        downgradeRefused("this log is not keyed, but a key was given");
    }

    @Test
    void aKeyedLogDeletedOrEmptiedTogetherWithItsRecordFailsVerifyAndStart() throws Exception {
        Files.delete(log());
        AuditForger.downgradeManifest(data, true);
        downgradeRefused("the manifest holds no record of the audit log, but a key was given");

        Files.write(log(), new byte[0]);
        downgradeRefused("the manifest holds no record of the audit log, but a key was given");
    }

    @Test
    void aKeyedLogDowngradedWithTheManifestDeletedFailsVerifyAndStart() throws Exception {
        AuditForger.of(data).unkey().reseal(false);
        Files.delete(data.resolve(io.signalman.datadir.Manifest.NAME));

        CliRunner.Result verify = CliRunner.run("audit", "verify", "--data", data.toString(), "--audit-key-file", key.toString());
        assertEquals(1, verify.code(), verify.out());
        assertTrue(verify.out().contains("problem: this log is not keyed, but a key was given"), verify.out());
        // A start adopts the files as an earlier version's (no manifest), and still refuses the unkeyed log under a key
        CliRunner.Result serve = serve("--accept-data-loss");
        assertEquals(1, serve.code(), serve.out() + serve.err());
        assertTrue(serve.err().contains("this log is not keyed, but a key was given"), serve.err());
    }

    @Test
    void dataVerifyNamesALogCutShortAndOneDeleted() throws Exception {
        Files.write(log(), new byte[0]);
        CliRunner.Result cut = CliRunner.run("data", "verify", "--data", data.toString(), "--audit-key-file", key.toString());
        assertEquals(1, cut.code(), cut.out());
        assertTrue(cut.out().contains("problem: audit log: the audit log holds 0 entries, but the manifest recorded 5"),
                cut.out());

        Files.delete(log());
        CliRunner.Result gone = CliRunner.run("data", "verify", "--data", data.toString(), "--audit-key-file", key.toString());
        assertEquals(1, gone.code(), gone.out());
        assertTrue(gone.out().contains("problem: audit.jsonl is missing"), gone.out());
    }

    @Test
    void dataVerifyPassesAWholeKeyedLogWithItsKeyAndSaysItIsKeyedWithoutIt() {
        CliRunner.Result whole = CliRunner.run("data", "verify", "--data", data.toString(), "--audit-key-file", key.toString());
        assertEquals(0, whole.code(), whole.out());

        CliRunner.Result keyless = CliRunner.run("data", "verify", "--data", data.toString());
        assertEquals(1, keyless.code(), keyless.out());
        assertTrue(keyless.out().contains("problem: audit log: this log is keyed (key id "), keyless.out());
        assertTrue(keyless.out().contains("give --audit-key-file"), keyless.out());
    }

    /**
     * {@code audit verify} with the key fails saying {@code problem}; a start with the key is refused
     * saying {@code start}; and once the manifest's record is made to match the log (which changes
     * it only where the log's length or head changed), verify still fails, saying {@code matched}.
     */
    private void refused(String problem, String start, String matched) {
        CliRunner.Result verify = CliRunner.run("audit", "verify", "--data", data.toString(), "--audit-key-file", key.toString());
        assertEquals(1, verify.code(), verify.out());
        assertTrue(verify.out().contains("problem: " + problem), verify.out());

        CliRunner.Result serve = CliRunner.run("serve", "--port", "0", "--data", data.toString(), "--rules",
                TestBundles.RULES.toString(), "--fixtures", TestBundles.FIXTURES.toString(), "--audit-key-file", key.toString());
        assertEquals(1, serve.code(), serve.out() + serve.err());
        assertTrue(serve.err().contains("signalman: cannot start: ") && serve.err().contains(start), serve.err());
        assertTrue(serve.err().contains("--accept-data-loss"), serve.err());

        AuditForger.matchManifest(data);
        CliRunner.Result after = CliRunner.run("audit", "verify", "--data", data.toString(), "--audit-key-file",
                key.toString());
        assertEquals(1, after.code(), after.out());
        assertTrue(after.out().contains("problem: " + matched), after.out());
    }

    /**
     * {@code audit verify} and {@code data verify} with the key fail saying {@code problem}; a start
     * with the key is refused saying it, and how a log never keyed is keyed, even accepting data loss.
     */
    private void downgradeRefused(String problem) {
        CliRunner.Result verify = CliRunner.run("audit", "verify", "--data", data.toString(), "--audit-key-file", key.toString());
        assertEquals(1, verify.code(), verify.out());
        assertTrue(verify.out().contains("problem: " + problem), verify.out());
        CliRunner.Result dataVerify = CliRunner.run("data", "verify", "--data", data.toString(), "--audit-key-file",
                key.toString());
        assertEquals(1, dataVerify.code(), dataVerify.out());
        assertTrue(dataVerify.out().contains(problem), dataVerify.out());

        CliRunner.Result serve = serve("--accept-data-loss");
        assertEquals(1, serve.code(), serve.out() + serve.err());
        assertTrue(serve.err().contains("signalman: cannot start: ") && serve.err().contains(problem), serve.err());
        assertTrue(serve.err().contains("signalman audit key --data " + data), serve.err());
        assertTrue(serve.err().contains("--accept-data-loss does not apply"), serve.err());
    }

    private CliRunner.Result serve(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("serve", "--port", "0", "--data", data.toString(), "--rules",
                TestBundles.RULES.toString(), "--fixtures", TestBundles.FIXTURES.toString(), "--audit-key-file", key.toString()));
        args.addAll(List.of(more));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private Path log() {
        return data.resolve(AuditLog.FILE);
    }

    /** A user added, two approvals of draft d, an activation, another user: five entries, keyed with {@code k} (or none). */
    private static void write(Path data, AuditKey k) {
        try (DataDir d = DataDir.open(data, false);
             People p = People.open(data, Writing.of(d, Disk.REAL, new Storage(Disk.REAL)), PeopleConfig.defaults().withAuditKey(k),
                     null, "admin", null, null, false)) {
            p.record(BO, "user_added", Json.object().put("subject", "ana"));
            p.record(BO, "draft_approved", Json.object().put("draft", "d").put("content_hash", "sha256:d").put("note", "ok"));
            p.record(CY, "draft_approved", Json.object().put("draft", "d").put("content_hash", "sha256:d").put("note", "ok"));
            p.record(CY, "activated", Json.object().put("draft", "d"));
            p.record(BO, "user_added", Json.object().put("subject", "dee"));
        }
    }
}
