package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of one node's state under {@code DATA/state/}: {@code snapshot-G.jsonl} (a header, then
 * one {@link StateLine} per entry and tombstone) and {@code journal-G.jsonl} (changes other than
 * decisions since snapshot G). Recovery reads the newest snapshot, then every journal from its
 * generation on, then every decision-log file the snapshot does not cover, applying each change
 * whose version is above both the snapshot's and the key's: versions are unique and increasing
 * for the whole node, so the order files are read in does not matter, and a change read twice is
 * applied once. A torn last line (kill -9 mid-write) is skipped: it was never acknowledged.
 */
final class StateFiles {

    private static final Logger LOG = LoggerFactory.getLogger(StateFiles.class);
    private static final Pattern SNAPSHOT = Pattern.compile("snapshot-(\\d+)\\.jsonl");
    private static final Pattern JOURNAL = Pattern.compile("journal-(\\d+)\\.jsonl");

    /** What recovery found: the highest version read, how many changes came after the snapshot. */
    record Recovered(long maxVersion, long replayed, String snapshot) {
    }

    private final Path dir;
    private final Path logDir;
    /** The running server's log, or null for an offline tool (export, import) with no writer. */
    private final DecisionLog log;
    private final FsyncPolicy fsync;
    private long generation;

    StateFiles(Path dir, Path logDir, DecisionLog log, FsyncPolicy fsync) {
        this.dir = dir;
        this.logDir = logDir;
        this.log = log;
        this.fsync = fsync;
    }

    Recovered recover(LocalState state) {
        try {
            Files.createDirectories(dir);
            TreeMap<Long, Path> snapshots = numbered(SNAPSHOT);
            long covered = 0;
            long max = 0;
            Set<String> coveredLogs = new HashSet<>();
            String name = "none";
            if (!snapshots.isEmpty()) {
                generation = snapshots.lastKey();
                name = snapshots.lastEntry().getValue().getFileName().toString();
                List<JsonNode> header = new ArrayList<>(1);
                max = readSnapshot(snapshots.lastEntry().getValue(), state, header);
                covered = header.get(0).path("covered").asLong();
                header.get(0).path("log_files").forEach(f -> coveredLogs.add(f.asText()));
                max = Math.max(max, covered);
            }
            long replayed = 0;
            for (var j : numbered(JOURNAL).tailMap(generation, true).entrySet()) {
                generation = Math.max(generation, j.getKey());
                Counted c = read(j.getValue(), line -> apply(state, line, null, 0) ? 1 : 0, true);
                replayed += c.applied;
                max = Math.max(max, c.max);
            }
            final long floor = covered;
            for (Path f : logFiles()) {
                if (coveredLogs.contains(logName(f))) {
                    continue;
                }
                Counted c = read(f, line -> {
                    JsonNode after = line.get("state_after");
                    if (after == null || !after.isObject()) {
                        return -1;
                    }
                    Instant at = line.hasNonNull("at") ? Instant.parse(line.get("at").asText()) : Instant.EPOCH;
                    return apply(state, after, at, floor) ? 1 : 0;
                }, true);
                replayed += c.applied;
                max = Math.max(max, c.max);
            }
            return new Recovered(max, replayed, name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state under " + dir, e);
        }
    }

    /** The journal new changes go to (the current generation's; a snapshot rolls it). */
    StateJournal openJournal() {
        return new StateJournal(dir.resolve("journal-" + generation + ".jsonl"), fsync);
    }

    /**
     * Writes snapshot G+1: under the barrier (no change half made) it notes the highest version
     * and the log position, and rolls the journal; then waits for the log to hold every decision
     * up to that position on disk (a snapshot never runs ahead of the log), writes the entries to
     * a temporary file, forces it, renames it into place and removes what it supersedes.
     */
    void snapshot(LocalState state, boolean logClosed) {
        long covered;
        long position;
        long gen;
        state.barrier().writeLock().lock();
        try {
            covered = state.currentVersion();
            position = log == null ? 0 : log.appended();
            gen = ++generation;
            state.journalFile().roll(dir.resolve("journal-" + gen + ".jsonl"));
        } finally {
            state.barrier().writeLock().unlock();
        }
        if (log != null) {
            log.sync(position);
        }
        Path tmp = dir.resolve("snapshot-" + gen + ".jsonl.tmp");
        try {
            ObjectNode header = Json.object();
            header.put("snapshot", gen);
            header.put("covered", covered);
            header.put("taken_at", Instant.now().toString());
            coveredLogs(logClosed || log == null).forEach(header.putArray("log_files")::add);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
                 OutputStream out = new BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch), 1 << 16)) {
                writeLine(out, header);
                for (LocalStateStore<?> s : state.all().values()) {
                    s.lines(line -> writeLine(out, line));
                }
                out.flush();
                ch.force(true);
            }
            Files.move(tmp, dir.resolve("snapshot-" + gen + ".jsonl"), StandardCopyOption.ATOMIC_MOVE);
            for (var old : numbered(SNAPSHOT).headMap(gen).values()) {
                Files.deleteIfExists(old);
            }
            for (var old : numbered(JOURNAL).headMap(gen).values()) {
                Files.deleteIfExists(old);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a state snapshot in " + dir, e);
        }
    }

    /** Every decision-log file whose records are all on disk now (the one being written is not). */
    private List<String> coveredLogs(boolean logClosed) throws IOException {
        if (logClosed) {
            return logFiles().stream().map(StateFiles::logName).toList();
        }
        while (true) {
            Path before = log.currentFile();
            List<Path> all = logFiles();
            if (before.equals(log.currentFile())) {
                return all.stream().filter(f -> !f.getFileName().equals(before.getFileName()))
                        .map(StateFiles::logName).toList();
            }
        }
    }

    private List<Path> logFiles() throws IOException {
        if (!Files.isDirectory(logDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(logDir)) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".jsonl") || n.endsWith(".jsonl.gz");
            }).sorted().toList();
        }
    }

    /** A log file's name without {@code .gz}: compressing a rolled file does not make it new. */
    private static String logName(Path f) {
        return f.getFileName().toString().replaceFirst("\\.gz$", "");
    }

    private static void writeLine(OutputStream out, ObjectNode line) {
        try {
            out.write(Json.bytes(line));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean apply(LocalState state, JsonNode n, Instant fallback, long floor) {
        StateLine l = StateLine.read(n, fallback);
        LocalStateStore<?> s = state.all().get(l.store());
        if (s == null || l.version() <= floor) {
            return false;
        }
        return s.recover(l.id(), l.version(), l.changedAt().toEpochMilli(), l.value(),
                l.expiredAt() == null ? null : l.expiredAt().toEpochMilli());
    }

    /** Lines applied and the highest version seen in one file. */
    private record Counted(long applied, long max) {
    }

    @FunctionalInterface
    private interface LineHandler {
        /** 1 applied, 0 read, -1 not a state line. */
        int handle(JsonNode line);
    }

    private static Counted read(Path f, LineHandler handler, boolean tornTailAllowed) throws IOException {
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
    private static long readSnapshot(Path f, LocalState state, List<JsonNode> header) throws IOException {
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

    private TreeMap<Long, Path> numbered(Pattern p) throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(f -> {
                Matcher m = p.matcher(f.getFileName().toString());
                if (m.matches()) {
                    out.put(Long.parseLong(m.group(1)), f);
                }
            });
        }
        return out;
    }
}
