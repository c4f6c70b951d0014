package io.signalman.decisionlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecisionLogTest {

    @TempDir
    Path dir;

    private static DecisionRecord record(String id) {
        return new DecisionRecord(id, "2026-11-21T00:00:00Z", "broker", "/v1/broker/route", "sha256:x",
                Json.object().put("n", id), Json.object().put("rule", "r"), null);
    }

    @Test
    void closeWritesEveryAppendedRecordFromManyThreads() throws Exception {
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.INTERVAL, 64);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                for (int i = 0; i < 2_500; i++) {
                    log.append(record(thread + "-" + i));
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        log.close();

        Set<String> ids = new HashSet<>();
        for (String line : lines()) {
            ids.add(DecisionRecord.fromJson(Json.parse(line)).decisionId());
        }
        assertEquals(10_000, ids.size());
        assertEquals(10_000, log.written());
    }

    @Test
    void recordsRoundTripThroughTheArchiveFormat() throws Exception {
        DecisionRecord r = new DecisionRecord("01ABC", "2026-11-21T00:00:00Z", "fsm", "/v1/fsm", "sha256:x",
                Json.object().put("a", 1), Json.object().put("rule", "r"), Json.object().put("current_state", "idle"));
        assertEquals(r, DecisionRecord.fromJson(Json.parse(Json.write(r.toJson()))));
    }

    @Test
    void appendingAfterCloseIsRefusedAndCloseIsIdempotent() {
        DecisionLog log = new DecisionLog(dir, FsyncPolicy.ALWAYS, 8);
        log.append(record("1"));
        log.close();
        log.close();
        assertThrows(IllegalStateException.class, () -> log.append(record("2")));
        assertEquals(1, log.written());
    }

    private List<String> lines() throws Exception {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).toList()) {
                out.addAll(Files.readAllLines(f));
            }
        }
        return out;
    }
}
