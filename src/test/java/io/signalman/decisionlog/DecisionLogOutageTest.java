package io.signalman.decisionlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.FillingDisk;
import io.signalman.datadir.HoldingDisk;
import io.signalman.datadir.Storage;
import io.signalman.datadir.StorageUnavailable;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that refuses writes (issues 17.2, 26.3): the batch it refuses is cut back out of the file
 * and refused (its waiters get {@link StorageUnavailable}, and it is never written later, so a 503
 * means nothing was logged); new records are refused until the disk takes writes again, which the
 * log notices by itself.
 */
class DecisionLogOutageTest {

    @TempDir
    Path dir;

    static DecisionRecord record(String id) {
        return new DecisionRecord(id, "2026-11-21T00:00:00Z", "broker", "/v1/broker/route", "sha256:x",
                Json.object().put("n", id), Json.object().put("rule", "r"), null);
    }

    @Test
    void aBatchTheDiskRefusesIsRefusedNeverWrittenLaterAndTheLogResumesByItself() throws Exception {
        FillingDisk disk = new FillingDisk();
        Storage storage = new Storage(disk);
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.INTERVAL, 64, disk, storage, FileRegistry.NONE);
        // Given a record written while the disk had room
        log.awaitDurable(log.append(record("before")));

        // When the disk fills up under a record on its way
        disk.full = true;
        DecisionLog.Appended refused = log.append(record("refused"));

        // Then its client is refused, and so is every new record while the disk is full
        StorageUnavailable e = assertThrows(StorageUnavailable.class, () -> log.awaitDurable(refused));
        assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        assertFalse(log.available());
        assertThrows(StorageUnavailable.class, () -> log.append(record("while-full")));

        // ... and when space returns the log takes records again by itself
        disk.full = false;
        Await.until(Duration.ofSeconds(10), "the log to take writes again", log::available);
        log.awaitDurable(log.append(record("after")));
        log.close();

        // ... and the file holds whole records only: the refused one was cut back and never written
        assertEquals(List.of("before", "after"), ids());
        assertEquals(1, storage.outages());
        assertEquals(1, log.refused());
    }

    @Test
    void underFsyncAlwaysARecordIsAcknowledgedOnlyOnceAForceCoversIt() throws Exception {
        // Given a disk that notes how far each force reached
        ForceWatchingDisk disk = new ForceWatchingDisk();
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.ALWAYS, 64, disk, new Storage(disk), FileRegistry.NONE);
        for (int i = 0; i < 20; i++) {
            // When a record's durable wait returns
            DecisionLog.Appended a = log.append(record("r" + i));
            log.awaitDurable(a);
            // Then a force of its file had already covered it (a policy that skips the force fails here)
            assertTrue(disk.forcedThrough(a.file()) >= a.end(), "acknowledged at byte " + a.end() + " of " + a.file()
                    + " but forced only through " + disk.forcedThrough(a.file()));
        }
        log.close();
    }

    @Test
    void underIntervalAndNeverARecordIsAcknowledgedOnlyOnceItIsInTheFile() throws Exception {
        for (FsyncPolicy policy : new FsyncPolicy[] {FsyncPolicy.INTERVAL, FsyncPolicy.NEVER}) {
            Path d = Files.createDirectories(dir.resolve(policy.name()));
            // Given a disk that holds every write until the test lets it go
            HoldingDisk disk = new HoldingDisk();
            DecisionLog log = new DecisionLog(d, policy, 64, disk, new Storage(disk), FileRegistry.NONE);
            boolean[] acknowledged = {false};
            boolean[] inFileWhenAcknowledged = {false};
            Thread client = new Thread(() -> {
                log.awaitDurable(log.append(record("one")));
                inFileWhenAcknowledged[0] = disk.written.get() > 0;
                acknowledged[0] = true;
            });
            client.start();
            // When the record's write is held, the client is still waiting (not answered) ...
            Await.until(Duration.ofSeconds(10), "the write to be held, or the client answered", () -> disk.holding.get()
                    || !client.isAlive());
            Await.until(Duration.ofSeconds(10), "the client to wait for its record, or be answered", () -> !client.isAlive()
                    || waitingInLog(client));
            assertFalse(acknowledged[0] && !inFileWhenAcknowledged[0], policy + ": the client was answered before its record"
                    + " was written");
            assertTrue(client.isAlive(), policy + ": the client was answered while its record's write was held");
            // ... and once the write goes through, it is answered with its record in the file
            disk.release();
            client.join(10_000);
            assertTrue(acknowledged[0] && inFileWhenAcknowledged[0], policy + ": acknowledged " + acknowledged[0]);
            log.close();
        }
    }

    /**
     * The listener of a record ({@code whenDurable}, what an answer sent without a waiting thread
     * relies on) is told exactly when a waiting thread would return: not while the write is held,
     * once it is in the file, once forced under {@code always}; told why when the disk refuses it;
     * and told at once when the record is settled already.
     */
    @Test
    void aRecordsListenerIsToldOnlyOnceTheRecordIsAsDurableAsAWaiterWouldBeAndWhyWhenRefused() throws Exception {
        // Given a disk that holds every write
        HoldingDisk held = new HoldingDisk();
        DecisionLog log = new DecisionLog(dir.resolve("held"), FsyncPolicy.INTERVAL, 64, held, new Storage(held),
                FileRegistry.NONE);
        java.util.concurrent.CompletableFuture<Integer> writesWhenTold = new java.util.concurrent.CompletableFuture<>();
        DecisionLog.Appended one = log.append(record("one"));
        log.whenDurable(one, refused -> writesWhenTold.complete(refused == null ? held.written.get() : -1));
        // When its write is held, the listener is not told
        Await.until(Duration.ofSeconds(10), "the write to be held", held.holding::get);
        assertFalse(writesWhenTold.isDone(), "told before the record was written");
        // ... and once it goes through, it is told, with the record in the file
        held.release();
        assertEquals(1, writesWhenTold.get(10, java.util.concurrent.TimeUnit.SECONDS));
        // ... and a listener of a record settled already is told at once, on the caller's thread
        Thread[] toldOn = new Thread[1];
        log.whenDurable(one, refused -> toldOn[0] = Thread.currentThread());
        assertEquals(Thread.currentThread(), toldOn[0]);
        log.close();

        // Under always, a listener is told only once a force covers its record
        ForceWatchingDisk watched = new ForceWatchingDisk();
        DecisionLog always = new DecisionLog(dir.resolve("always"), FsyncPolicy.ALWAYS, 64, watched, new Storage(watched),
                FileRegistry.NONE);
        for (int i = 0; i < 20; i++) {
            DecisionLog.Appended a = always.append(record("r" + i));
            java.util.concurrent.CompletableFuture<Long> forcedWhenTold = new java.util.concurrent.CompletableFuture<>();
            always.whenDurable(a, refused -> forcedWhenTold.complete(watched.forcedThrough(a.file())));
            long forced = forcedWhenTold.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(forced >= a.end(), "told at byte " + a.end() + " but forced only through " + forced);
        }
        always.close();

        // A record the disk refuses: its listener is told why
        FillingDisk full = new FillingDisk();
        DecisionLog refusing = new DecisionLog(dir.resolve("full"), FsyncPolicy.INTERVAL, 64, full, new Storage(full),
                FileRegistry.NONE);
        full.full = true;
        java.util.concurrent.CompletableFuture<RuntimeException> why = new java.util.concurrent.CompletableFuture<>();
        refusing.whenDurable(refusing.append(record("refused")), why::complete);
        assertTrue(why.get(10, java.util.concurrent.TimeUnit.SECONDS) instanceof StorageUnavailable);
        full.full = false;
        refusing.close();
    }

    @Test
    void recordsAreWrittenInTheOrderTheyWereAppended() throws Exception {
        // Given one thread appending fast enough that the writer takes many records per batch
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.NEVER, 100_000);
        List<String> appended = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            appended.add("r" + i);
            log.append(record("r" + i));
        }
        log.close();
        // Then the file lists them in that order (a batch written reversed or shuffled fails this)
        assertEquals(appended, ids());
    }

    private static boolean waitingInLog(Thread t) {
        Thread.State s = t.getState();
        if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getMethodName().equals("awaitDurable")) {
                return true;
            }
        }
        return false;
    }

    private List<String> ids() throws Exception {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted(LogFiles.ORDER).toList()) {
                for (String line : Files.readAllLines(f)) {
                    out.add(DecisionRecord.fromJson(Json.parse(line)).decisionId());
                }
            }
        }
        return out;
    }
}
