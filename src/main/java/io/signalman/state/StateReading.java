package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.DataDirRefused;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordLine;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.InputStream;
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
 * decision-log files line by line in order, each change applied to its store only when its
 * version is above what the key holds. Every line is checked against its checksum
 * ({@link RecordLine}; unsealed lines only in a format-1 file): a line that does not check with
 * whole lines after it is corruption in the middle, refused naming the file, line and byte offset;
 * at the end of a file it is a torn tail, skipped (a start has already cut it back; an export
 * beside a running server may see a write in progress).
 */
final class StateReading {

    private static final Logger LOG = LoggerFactory.getLogger(StateReading.class);
    private static final byte[] STATE_AFTER = "\"state_after\"".getBytes(StandardCharsets.US_ASCII);
    private static final int BATCH = 4096;

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

    /** Reads a journal or decision-log file in order ({@code legacy}: written before checksums). */
    static Counted read(Path f, LineHandler handler, boolean legacy) throws IOException {
        long applied = 0;
        long max = 0;
        String name = f.getFileName().toString();
        boolean log = !name.startsWith("snapshot-") && !name.startsWith("journal-");
        String bad = null;
        try (InputStream raw = Files.newInputStream(f);
             LineReader r = new LineReader(f.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw)) {
            while (r.next()) {
                if (r.length() == 0 || log && !r.contains(STATE_AFTER)) {
                    continue;
                }
                JsonNode n = r.terminated() ? parse(r.bytes(), r.length(), legacy) : null;
                if (n == null) {
                    bad = bad != null ? bad : "line " + r.number() + " (byte " + r.offset() + ")";
                    continue;
                }
                if (bad != null) {
                    throw corrupt(f, bad);
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
        if (bad != null) {
            LOG.warn("{}: {} and what follows it skipped: a write cut short by a crash, never acknowledged", f, bad);
        }
        return new Counted(applied, max);
    }

    /** The line as JSON when it is a whole record (sealed and checking, or unsealed in a legacy file), else null. */
    static JsonNode parse(byte[] b, int len, boolean legacy) {
        RecordLine.Check c = RecordLine.check(b, 0, len);
        if (c == RecordLine.Check.CORRUPT || c == RecordLine.Check.UNSEALED && !legacy) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(b, 0, len);
        } catch (IOException e) {
            return null;
        }
    }

    static DataDirRefused corrupt(Path f, String where) {
        return new DataDirRefused(f + ": " + where + " does not check against its checksum, and whole records follow it: "
                + "damage in the middle of the file, not a write cut short by a crash. Restore the file from a backup; "
                + "signalman data verify --data DIR lists every problem");
    }

    /**
     * Reads a snapshot, parsing its lines on every core: a snapshot holds each key once, so its
     * lines apply in any order (journals and logs may hold one key many times: read in order). A
     * snapshot is complete when it is in place (written beside, forced, renamed), so any line
     * that does not check is refused.
     * NOTE(perf): parsing is most of a start-up; a million conversations took 23 s on one thread.
     */
    static long readSnapshot(Path f, LocalState state, List<JsonNode> header, boolean legacy) throws IOException {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(2 * threads);
        java.util.concurrent.atomic.AtomicLong max = new java.util.concurrent.atomic.AtomicLong();
        List<java.util.concurrent.Future<?>> batches = new ArrayList<>();
        try (LineReader r = new LineReader(Files.newInputStream(f))) {
            if (!r.next()) {
                throw new DataDirRefused(f + " is empty: a snapshot starts with its header; restore it from a backup");
            }
            JsonNode first = r.terminated() ? parse(r.bytes(), r.length(), legacy) : null;
            if (first == null) {
                throw corrupt(f, "its header (line 1)");
            }
            header.add(first);
            List<byte[]> batch = new ArrayList<>(BATCH);
            long firstLine = 2;
            while (true) {
                boolean more = r.next();
                if (more && r.length() > 0) {
                    if (!r.terminated()) {
                        throw corrupt(f, "line " + r.number() + " (byte " + r.offset() + ", the last, cut short)");
                    }
                    batch.add(r.copy());
                }
                if (batch.size() == BATCH || !more && !batch.isEmpty()) {
                    List<byte[]> lines = batch;
                    long from = firstLine;
                    batch = new ArrayList<>(BATCH);
                    firstLine = r.number() + 1;
                    inFlight.acquireUninterruptibly();
                    batches.add(pool.submit(() -> {
                        try {
                            for (int i = 0; i < lines.size(); i++) {
                                JsonNode n = parse(lines.get(i), lines.get(i).length, legacy);
                                if (n == null) {
                                    throw corrupt(f, "line " + (from + i));
                                }
                                apply(state, n, null, 0);
                                max.accumulateAndGet(n.path("version").asLong(), Math::max);
                            }
                            return null;
                        } finally {
                            inFlight.release();
                        }
                    }));
                }
                if (!more) {
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
            if (e.getCause() instanceof DataDirRefused refused) {
                throw refused;
            }
            throw new IOException(f + ": " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return max.get();
    }
}
