package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trials on one node: {@code <data>/trials/<id>/trial.json} (the trial, replaced atomically and
 * forced before a change is answered), {@code rules/} (the candidate's files, copied once when
 * the trial starts: the draft may change afterwards, the trial does not), and
 * {@code figures.json} (the node's figures, written every few seconds and when the trial ends,
 * so that a restart keeps them). Trials over (promoted, aborted) past the newest {@link #KEEP}
 * are deleted when a new one starts. Every method does file I/O: a worker or the trial's own thread.
 */
final class FileTrialStore implements TrialStore {

    private static final Logger LOG = LoggerFactory.getLogger(FileTrialStore.class);
    static final int KEEP = 20;
    private static final Pattern ID = Pattern.compile("[0-9A-Z]{26}");

    private final Path root;
    private final Map<String, Trial> trials = new ConcurrentHashMap<>();
    private final Map<String, Map<String, ObjectNode>> figures = new ConcurrentHashMap<>();

    FileTrialStore(Path root) {
        this.root = root;
        read();
    }

    private void read() {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                Path file = d.resolve("trial.json");
                if (!ID.matcher(d.getFileName().toString()).matches() || !Files.isRegularFile(file)) {
                    continue;
                }
                try {
                    Trial t = Trial.fromJson(Json.MAPPER.readTree(file.toFile()));
                    trials.put(t.id(), t);
                    Path f = d.resolve("figures.json");
                    if (Files.isRegularFile(f)) {
                        JsonNode n = Json.MAPPER.readTree(f.toFile());
                        Map<String, ObjectNode> byNode = new ConcurrentHashMap<>();
                        n.fields().forEachRemaining(e -> byNode.put(e.getKey(), (ObjectNode) e.getValue()));
                        figures.put(t.id(), byNode);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.error("trial {} cannot be read and is left out: {}", d, e.toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the trials in " + root, e);
        }
    }

    @Override
    public List<Trial> all() {
        List<Trial> out = new ArrayList<>(trials.values());
        out.sort(Comparator.comparing(Trial::id).reversed());
        return out;
    }

    @Override
    public Optional<Trial> get(String id) {
        return Optional.ofNullable(trials.get(id));
    }

    @Override
    public synchronized boolean start(Trial trial, BundleFiles candidate) {
        if (trials.values().stream().anyMatch(Trial::running)) {
            return false;
        }
        keep(trial, candidate);
        prune();
        return true;
    }

    /** Keeps a trial and its candidate's files as they are (a new trial, or a cluster member's copy of one). */
    synchronized void keep(Trial trial, BundleFiles candidate) {
        Path dir = root.resolve(trial.id());
        try {
            for (String p : candidate.paths()) {
                Path target = dir.resolve("rules").resolve(p).normalize();
                if (!target.startsWith(dir.resolve("rules"))) {
                    throw new IllegalArgumentException("a candidate file outside its folder: " + p);
                }
                Files.createDirectories(target.getParent());
                Files.write(target, candidate.bytes(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the candidate of trial " + trial.id(), e);
        }
        write(trial);
        trials.put(trial.id(), trial);
    }

    @Override
    public synchronized boolean replace(Trial before, Trial after) {
        Trial now = trials.get(before.id());
        if (now == null || now.version() != before.version()) {
            return false;
        }
        write(after);
        trials.put(after.id(), after);
        if (!after.running()) {
            flush(after.id());
        }
        return true;
    }

    /** Puts {@code trial} as it is (a cluster member's copy of the shared record). */
    synchronized void mirror(Trial trial) {
        Trial now = trials.get(trial.id());
        if (now == null || now.version() < trial.version()) {
            write(trial);
            trials.put(trial.id(), trial);
        }
    }

    @Override
    public BundleFiles candidate(String id) {
        try {
            return BundleFiles.read(root.resolve(id).resolve("rules"));
        } catch (BundleException e) {
            throw new IllegalStateException("the candidate of trial " + id + " cannot be read: " + e.errors(), e);
        }
    }

    @Override
    public void publish(String id, String node, ObjectNode snapshot) {
        figures.computeIfAbsent(id, k -> new ConcurrentHashMap<>()).put(node, snapshot);
    }

    @Override
    public Map<String, ObjectNode> figures(String id) {
        return new LinkedHashMap<>(figures.getOrDefault(id, Map.of()));
    }

    /**
     * Writes a trial's figures to its folder (every few seconds while it runs, and when it ends).
     * Synchronized as every other writer here: the tick's flush and an abort's flush once raced on
     * the one temporary file, and the loser's rename failed the abort.
     */
    synchronized void flush(String id) {
        Map<String, ObjectNode> byNode = figures.get(id);
        if (byNode == null || !trials.containsKey(id)) {
            return;
        }
        ObjectNode n = Json.object();
        byNode.forEach(n::set);
        atomically(root.resolve(id).resolve("figures.json"), Json.bytes(n));
    }

    private void write(Trial t) {
        atomically(root.resolve(t.id()).resolve("trial.json"), Json.bytes(t.toJson()));
    }

    /** Written beside, forced, renamed over: a reader finds the old file or the new one, whole. */
    private static void atomically(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    c.write(b);
                }
                c.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Trials that are over, past the newest {@link #KEEP}, go with their folders. */
    private void prune() {
        List<Trial> over = all().stream().filter(t -> t.state().over()).toList();
        for (int i = KEEP; i < over.size(); i++) {
            String id = over.get(i).id();
            trials.remove(id);
            figures.remove(id);
            try (Stream<Path> walk = Files.walk(root.resolve(id))) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            } catch (IOException e) {
                LOG.warn("trial {} could not be deleted: {}", id, e.toString());
            }
        }
    }

    @Override
    public void close() {
        for (Trial t : trials.values()) {
            flush(t.id());
        }
    }
}
