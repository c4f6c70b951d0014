package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.control.MemoryJournal;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster's audit log: one chain from every member, with no forks, and no forged entry counted as an act. */
class SharedAuditLogTest {

    @TempDir
    Path dir;

    @Test
    void membersAppendingAtOnceMakeOneChainThatVerifies() throws Exception {
        AuditKey key = AuditKey.load(AuditForger.keyFile(dir.resolve("audit.key")), dir.resolve("data"));
        MemoryJournal journal = new MemoryJournal();
        List<AuditLog> members = List.of(AuditLog.openShared(dir, journal, key, "a:1"), AuditLog.openShared(dir, journal, key, "b:2"),
                AuditLog.openShared(dir, journal, key, "c:3"));
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<?>> running = new ArrayList<>();
        for (AuditLog m : members) {
            running.add(pool.submit(() -> {
                for (int i = 0; i < 40; i++) {
                    m.append(new Principal("ana", EnumSet.of(Role.AUTHOR), "token"), "approved", Json.object().put("draft", "d" + i));
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        // The marker of the first member's keying, then every member's entries: each seq once, each linking to the one before
        long total = journal.size();
        assertEquals(1 + 120, total);
        for (AuditLog m : members) {
            assertEquals(total, m.entries().size(), "every member read every entry");
        }
        StringBuilder export = new StringBuilder();
        for (long s = 1; s <= total; s++) {
            export.append(journal.get(s)).append('\n');
        }
        Path file = dir.resolve("export.jsonl");
        Files.writeString(file, export);
        AuditVerify.Report r = AuditVerify.checkExport(file, key);
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(total, r.entries());
    }

    @Test
    void anEntryWrittenIntoTheMapWithoutTheKeyIsKeptButCountsAsNoOnesAct() throws Exception {
        AuditKey key = AuditKey.load(AuditForger.keyFile(dir.resolve("audit.key")), dir.resolve("data"));
        MemoryJournal journal = new MemoryJournal();
        AuditLog a = AuditLog.openShared(dir, journal, key, "a:1");
        JsonNode real = a.append(new Principal("bo", EnumSet.of(Role.APPROVER), "token"), "approved", Json.object().put("draft", "d1"));
        assertTrue(a.counts(real));
        // Someone who can write the map, but cannot read the key, adds an approval with a made-up MAC
        String forged = "{\"seq\":" + (journal.size() + 1) + ",\"at\":\"2026-11-28T00:00:00Z\",\"user\":\"mallory\",\"via\":\"token\","
                + "\"action\":\"approved\",\"draft\":\"d2\",\"prev\":\"" + real.path("mac").asText() + "\",\"key\":\"" + key.id()
                + "\",\"mac\":\"hmac-sha256:" + "0".repeat(64) + "\"}";
        assertTrue(journal.append(journal.size() + 1, forged));
        List<JsonNode> seen = a.entries();
        JsonNode f = seen.get(seen.size() - 1);
        assertEquals("mallory", f.path("user").asText());
        assertFalse(a.counts(f), "a forged approval counts as no one's act");
        // ... and a member that opens the log later judges it the same way
        AuditLog later = AuditLog.openShared(dir, journal, key, "b:2");
        assertFalse(later.counts(later.entries().get((int) journal.size() - 1)));
        assertTrue(later.counts(later.entries().get((int) real.path("seq").asLong() - 1)));
    }
}
