package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import java.util.zip.CheckedOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of one node's state under {@code DATA/state/}: {@code snapshot-G.jsonl} (a header, then
 * one {@link StateLine} per entry and tombstone) and {@code journal-G.jsonl} (changes other than
 * decisions since snapshot G). Recovery reads the newest snapshot, then every journal from its
 * generation on, then every decision-log file the snapshot does not cover, applying each change
 * whose version is above both the snapshot's and the key's: versions are unique and increasing
 * for the whole node, so the order files are read in does not matter, and a change read twice is
 * applied once. Every line is sealed with its checksum ({@link io.signalman.datadir.RecordLine});
 * a torn last line (kill -9 mid-write) is skipped (a start has already cut it back), corruption in
 * the middle refused. Every file is registered with the data directory's manifest before it is
 * created and before it is deleted, a snapshot with its length and checksum.
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
    private final Writing writing;
    private long generation;

    StateFiles(Path dir, Path logDir, DecisionLog log, FsyncPolicy fsync, Writing writing) {
        this.dir = dir;
        this.logDir = logDir;
        this.log = log;
        this.fsync = fsync;
        this.writing = writing;
    }

    Writing writing() {
        return writing;
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
                Path snapshot = snapshots.lastEntry().getValue();
                max = StateReading.readSnapshot(snapshot, state, header, writing.legacy().test(snapshot));
                covered = header.get(0).path("covered").asLong();
                header.get(0).path("log_files").forEach(f -> coveredLogs.add(f.asText()));
                max = Math.max(max, covered);
            }
            long replayed = 0;
            for (var j : numbered(JOURNAL).tailMap(generation, true).entrySet()) {
                generation = Math.max(generation, j.getKey());
                StateReading.Counted c = StateReading.read(j.getValue(), line -> StateReading.apply(state, line, null, 0) ? 1 : 0,
                        writing.legacy().test(j.getValue()));
                replayed += c.applied();
                max = Math.max(max, c.max());
            }
            final long floor = covered;
            for (Path f : logFiles()) {
                if (coveredLogs.contains(logName(f))) {
                    continue;
                }
                StateReading.Counted c = StateReading.read(f, line -> {
                    JsonNode after = line.get("state_after");
                    if (after == null || !after.isObject()) {
                        return -1;
                    }
                    Instant at = line.hasNonNull("at") ? Instant.parse(line.get("at").asText()) : Instant.EPOCH;
                    return StateReading.apply(state, after, at, floor) ? 1 : 0;
                }, writing.legacy().test(f));
                replayed += c.applied();
                max = Math.max(max, c.max());
            }
            return new Recovered(max, replayed, name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state under " + dir, e);
        }
    }

    /**
     * Where each of {@code ids} of {@code store} got the value it holds: the file, line and byte
     * offset of its newest record, read again from the snapshot, journals and decision-log files
     * a start reads. For an error's message (a restored FSM instance in a state its machine lacks),
     * so it reads everything and keeps nothing else.
     */
    Map<String, String> locate(String store, Set<String> ids) {
        Map<String, String> where = new HashMap<>();
        Map<String, Long> versions = new HashMap<>();
        try {
            List<Path> files = new ArrayList<>(numbered(SNAPSHOT).values());
            files.addAll(numbered(JOURNAL).values());
            files.addAll(logFiles());
            for (Path f : files) {
                try (InputStream raw = Files.newInputStream(f);
                     LineReader r = new LineReader(f.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw)) {
                    while (r.next()) {
                        JsonNode n = StateReading.parse(r.bytes(), r.length(), true);
                        JsonNode line = n == null ? null : n.has("state_after") ? n.get("state_after") : n;
                        if (line == null || !store.equals(line.path("store").asText()) || !ids.contains(line.path("id").asText())) {
                            continue;
                        }
                        String id = line.path("id").asText();
                        long v = line.path("version").asLong();
                        if (v >= versions.getOrDefault(id, -1L)) {
                            versions.put(id, v);
                            where.put(id, f + ", line " + r.number() + " (byte " + r.offset() + ", version " + v + ")");
                        }
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn("could not locate the records of {} in {}: {}", ids, dir, e.toString());
        }
        return where;
    }

    /** The journal new changes go to (the current generation's; a snapshot rolls it). */
    StateJournal openJournal() {
        return new StateJournal(dir.resolve("journal-" + generation + ".jsonl"), fsync, writing);
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
            // (the new journal is registered with the manifest before it is created: StateJournal.roll)
        } finally {
            state.barrier().writeLock().unlock();
        }
        if (log != null) {
            log.sync(position);
        }
        Path tmp = dir.resolve("snapshot-" + gen + ".jsonl.tmp");
        Path target = dir.resolve("snapshot-" + gen + ".jsonl");
        try {
            ObjectNode header = Json.object();
            header.put("snapshot", gen);
            header.put("covered", covered);
            header.put("taken_at", Instant.now().toString());
            coveredLogs(logClosed || log == null).forEach(header.putArray("log_files")::add);
            CRC32C crc = new CRC32C();
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
                 OutputStream out = new BufferedOutputStream(new CheckedOutputStream(Channels.newOutputStream(ch), crc), 1 << 16)) {
                writeLine(out, header);
                for (LocalStateStore<?> s : state.all().values()) {
                    s.lines(line -> writeLine(out, line));
                }
                out.flush();
                writing.disk().force(tmp, ch, true);
            }
            // Listed (complete, with its length and checksum) before it is in place: a start that
            // finds the listed snapshot missing but its .tmp whole finishes the rename.
            writing.registry().closed(target, Files.size(tmp), (int) crc.getValue());
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            for (var old : numbered(SNAPSHOT).headMap(gen).values()) {
                writing.registry().removing(old);
                Files.deleteIfExists(old);
            }
            for (var old : numbered(JOURNAL).headMap(gen).values()) {
                writing.registry().removing(old);
                Files.deleteIfExists(old);
            }
        } catch (IOException e) {
            writing.storage().failed(tmp, e);
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a leftover .tmp is removed at the next start
            }
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
            out.write(RecordLine.seal(Json.bytes(line)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

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
