package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How recovery ({@link StateFiles}) reads its files: snapshots on every core, journals and
 * decision-log files line by line in order, a torn last line skipped, each change applied to its
 * store only when its version is above what the key holds.
 */
final class StateReading {

    private static final Logger LOG = LoggerFactory.getLogger(StateReading.class);

    private StateReading() {
    }

    static boolean apply(LocalState state, JsonNode n, Instant fallback, long floor) {
        StateLine l = StateLine.read(n, fallback);
        LocalStateStore<?> s = state.all().get(l.store());
        if (s == null || l.version() <= floor) {
            return false;
        }
        return s.recover(l.id(), l.version(), l.changedAt().toEpochMilli(), l.value(),
                l.expiredAt() == null ? null : l.expiredAt().toEpochMilli());
    }

    /** Lines applied and the highest version seen in one file. */
    record Counted(long applied, long max) {
    }

    @FunctionalInterface
    interface LineHandler {
        /** 1 applied, 0 read, -1 not a state line. */
        int handle(JsonNode line);
    }

    static Counted read(Path f, LineHandler handler, boolean tornTailAllowed) throws IOException {
        long applied = 0;
        long max = 0;
        boolean log = !f.getFileName().toString().startsWith("snapshot-") && !f.getFileName().toString().startsWith("journal-");
        try (InputStream raw = Files.newInputStream(f);
             InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            String line;
            int number = 0;
            while ((line = r.readLine()) != null) {
                number++;
                if (line.isBlank() || log && !line.contains("\"state_after\"")) {
                    continue;
                }
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(line);
                } catch (IOException e) {
                    if (!tornTailAllowed) {
                        throw new IOException(f + ":" + number + ": not JSON: " + e.getMessage(), e);
                    }
                    LOG.warn("{}:{}: skipped a line that does not parse (a write cut short by a crash)", f, number);
                    continue;
                }
                int h = handler.handle(n);
                if (h < 0) {
                    continue;
                }
                applied += h;
                JsonNode v = n.has("state_after") ? n.get("state_after").path("version") : n.path("version");
                max = Math.max(max, v.asLong());
            }
        } catch (java.io.EOFException e) {
            LOG.warn("{}: ends early (a compressed file cut short); read what it holds", f);
        }
        return new Counted(applied, max);
    }

    /**
     * Reads a snapshot, parsing its lines on every core: a snapshot holds each key once, so its
     * lines apply in any order (journals and logs may hold one key many times: read in order).
     * NOTE(perf): parsing is most of a start-up; a million conversations took 23 s on one thread.
     */
    static long readSnapshot(Path f, LocalState state, List<JsonNode> header) throws IOException {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(2 * threads);
        java.util.concurrent.atomic.AtomicLong max = new java.util.concurrent.atomic.AtomicLong();
        List<java.util.concurrent.Future<?>> batches = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            if (first == null) {
                throw new IOException(f + " is empty: a snapshot starts with its header");
            }
            header.add(Json.MAPPER.readTree(first));
            List<String> batch = new ArrayList<>(BATCH);
            String line;
            while (true) {
                line = r.readLine();
                if (line != null && !line.isBlank()) {
                    batch.add(line);
                }
                if (batch.size() == BATCH || line == null && !batch.isEmpty()) {
                    List<String> lines = batch;
                    batch = new ArrayList<>(BATCH);
                    inFlight.acquireUninterruptibly();
                    batches.add(pool.submit(() -> {
                        try {
                            for (String l : lines) {
                                JsonNode n = Json.MAPPER.readTree(l);
                                apply(state, n, null, 0);
                                max.accumulateAndGet(n.path("version").asLong(), Math::max);
                            }
                            return null;
                        } finally {
                            inFlight.release();
                        }
                    }));
                }
                if (line == null) {
                    break;
                }
            }
            for (var b : batches) {
                b.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + f, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(f + ": " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return max.get();
    }

    private static final int BATCH = 4096;
}
