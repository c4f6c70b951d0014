package io.signalman.trials;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trials shared by a cluster's members, in Hazelcast maps (each entry held by two members):
 * {@code signalman.trials} (id to the trial, changed under the entry's lock, so that only a
 * change made to the version it read is written), {@code signalman.trials.files} (the candidate's
 * files, so that every member compiles the same candidate), {@code signalman.trials.running} (the
 * one running trial) and {@code signalman.trials.figures.<id>} (each member's figures, which
 * {@link Figures} adds up into the cluster's). Every change is mirrored into the member's own
 * data directory ({@link FileTrialStore}): when every member stopped, the shared maps are gone,
 * and the first member to start again ends each trial its mirror shows running, saying so,
 * instead of letting it vanish.
 */
final class SharedTrialStore implements TrialStore {

    private static final Logger LOG = LoggerFactory.getLogger(SharedTrialStore.class);
    static final String TRIALS = "signalman.trials";
    private static final String RUNNING_KEY = "running";

    private final HazelcastInstance hz;
    private final IMap<String, String> trials;
    private final IMap<String, String> files;
    private final IMap<String, String> running;
    private final FileTrialStore mirror;

    SharedTrialStore(HazelcastInstance hz, FileTrialStore mirror) {
        this.hz = hz;
        this.trials = hz.getMap(TRIALS);
        this.files = hz.getMap(TRIALS + ".files");
        this.running = hz.getMap(TRIALS + ".running");
        this.mirror = mirror;
        reconcile();
    }

    /** At start: the cluster's trials mirrored here; a trial this member remembers running that the cluster lost, ended. */
    private void reconcile() {
        for (Trial mine : mirror.all()) {
            String theirs = trials.get(mine.id());
            if (theirs == null) {
                Trial t = mine.running() ? mine.stopped("every member of the cluster stopped, and the trial's shared state with "
                        + "them; it ended when the cluster started again") : mine;
                if (trials.putIfAbsent(mine.id(), Json.write(t.toJson())) == null) {
                    files.putIfAbsent(mine.id(), encode(mirror.candidate(mine.id())));
                    if (t != mine) {
                        LOG.warn("trial {} ended: {}", t.id(), t.stopReason());
                    }
                }
            }
        }
        for (String json : trials.values()) {
            Trial t = parse(json);
            if (mirror.get(t.id()).isEmpty()) {
                mirror.keep(t, candidate(t.id()));
            } else {
                mirror.mirror(t);
            }
        }
    }

    @Override
    public List<Trial> all() {
        List<Trial> out = new ArrayList<>();
        trials.values().forEach(j -> out.add(parse(j)));
        out.sort(Comparator.comparing(Trial::id).reversed());
        return out;
    }

    @Override
    public Optional<Trial> get(String id) {
        String j = trials.get(id);
        return j == null ? Optional.empty() : Optional.of(parse(j));
    }

    @Override
    public boolean start(Trial trial, BundleFiles candidate) {
        String before = running.putIfAbsent(RUNNING_KEY, trial.id());
        if (before != null) {
            Optional<Trial> other = get(before);
            if (other.isPresent() && other.get().running() || !running.replace(RUNNING_KEY, before, trial.id())) {
                return false;
            }
        }
        files.set(trial.id(), encode(candidate));
        trials.set(trial.id(), Json.write(trial.toJson()));
        mirror.keep(trial, candidate);
        return true;
    }

    @Override
    public boolean replace(Trial before, Trial after) {
        trials.lock(before.id());
        try {
            String now = trials.get(before.id());
            if (now == null || parse(now).version() != before.version()) {
                return false;
            }
            trials.set(after.id(), Json.write(after.toJson()));
        } finally {
            trials.unlock(before.id());
        }
        if (!after.running()) {
            running.remove(RUNNING_KEY, after.id());
        }
        mirror.mirror(after);
        return true;
    }

    @Override
    public BundleFiles candidate(String id) {
        String j = files.get(id);
        if (j == null) {
            return mirror.candidate(id);
        }
        try {
            return BundleFiles.of(Path.of("trial-" + id), io.signalman.control.FilesCodec.decode(Json.MAPPER.readTree(j)));
        } catch (IOException e) {
            throw new UncheckedIOException("the candidate of trial " + id + " cannot be read from the cluster", e);
        }
    }

    @Override
    public void publish(String id, String node, ObjectNode figures) {
        hz.<String, String>getMap(TRIALS + ".figures." + id).set(node, Json.write(figures));
        mirror.publish(id, node, figures);
    }

    @Override
    public Map<String, ObjectNode> figures(String id) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        hz.<String, String>getMap(TRIALS + ".figures." + id).forEach((node, j) -> {
            try {
                out.put(node, (ObjectNode) Json.MAPPER.readTree(j));
            } catch (IOException e) {
                LOG.warn("trial {}: the figures of node {} cannot be read: {}", id, node, e.toString());
            }
        });
        return out;
    }

    private static String encode(BundleFiles f) {
        Map<String, byte[]> files = new TreeMap<>();
        f.paths().forEach(p -> files.put(p, f.bytes(p)));
        return Json.write(io.signalman.control.FilesCodec.encode(files));
    }

    private static Trial parse(String json) {
        try {
            return Trial.fromJson(Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("a trial in the cluster's map cannot be read", e);
        }
    }

    @Override
    public void close() {
        mirror.close();
    }
}
