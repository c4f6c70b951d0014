package io.signalman.decisionlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that refuses writes (issue 17.2): the log stops acknowledging, cuts the file back to its
 * last whole record, keeps what it held, retries, and writes again by itself when space returns.
 */
class DecisionLogOutageTest {

    @TempDir
    Path dir;

    private static DecisionRecord record(String id) {
        return new DecisionRecord(id, "2026-11-21T00:00:00Z", "broker", "/v1/broker/route", "sha256:x",
                Json.object().put("n", id), Json.object().put("rule", "r"), null);
    }

    @Test
    void aFullDiskRefusesNewRecordsKeepsTheHeldOnesAndResumesWithEveryLineWhole() throws Exception {
        FillingDisk disk = new FillingDisk();
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.INTERVAL, 64, disk);
        // Given a record written while the disk had room
        log.append(record("before"));
        Await.until(Duration.ofSeconds(10), "the first record to be written", () -> log.written() == 1);

        // When the disk fills up under an acknowledged record
        disk.full = true;
        log.append(record("held"));
        Await.until(Duration.ofSeconds(10), "the log to see the outage", () -> !log.available());

        // Then new records are refused, not acknowledged, while the writer keeps retrying
        DecisionLogUnavailable refused = assertThrows(DecisionLogUnavailable.class, () -> log.append(record("refused")));
        assertTrue(refused.getMessage().contains("No space left on device"), refused.getMessage());
        assertTrue(log.failure() != null);
        int tries = disk.refused.get();
        Await.until(Duration.ofSeconds(10), "the writer to retry", () -> disk.refused.get() > tries);

        // ... and when space returns the log writes again by itself, the held record included
        disk.full = false;
        Await.until(Duration.ofSeconds(10), "the log to write again", () -> log.available() && log.written() == 2);
        log.append(record("after"));
        log.close();

        // ... and the file holds whole records only, in order: the partial writes were cut back
        assertEquals(List.of("before", "held", "after"), ids());
        assertEquals(1, log.outages());
    }

    @Test
    void underFsyncAlwaysADecisionIsAcknowledgedOnlyOnceWrittenAndRefusedWhileTheDiskIsFull() throws Exception {
        FillingDisk disk = new FillingDisk();
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.ALWAYS, 64, disk);
        // Given a record appended under fsync always: once its durable wait returns it is in the file
        log.awaitDurable(log.append(record("one")));
        assertEquals(1, log.written());

        // When the disk is full, an append waiting for its write is answered with the failure
        disk.full = true;
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> log.awaitDurable(log.append(record("two"))));
        ExecutionException e = assertThrows(ExecutionException.class, waiting::get);
        assertTrue(e.getCause() instanceof DecisionLogUnavailable, e.toString());
        assertFalse(log.available());

        // Then, once space returns, the record it was refused for is still written (it was held, not dropped)
        disk.full = false;
        Await.until(Duration.ofSeconds(10), "the held record to be written", () -> log.written() == 2);
        log.close();
        assertEquals(List.of("one", "two"), ids());
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
