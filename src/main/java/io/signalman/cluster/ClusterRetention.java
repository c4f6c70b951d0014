package io.signalman.cluster;

import com.hazelcast.map.IMap;
import io.signalman.state.StateConfig;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Retention and the cap for one cluster-wide state map, as a single node applies them:
 * every member sweeps the keys it owns ({@code localKeySet}), removing an entry only if it is still
 * the value it judged ({@code remove(key, value)}: a change in between keeps it), and leaves a
 * tombstone in {@code signalman.state.expired.<store>} that Hazelcast drops after the tombstone
 * retention by itself (time to live). Blocking: the state upkeep thread and workers only.
 */
final class ClusterRetention<V> {

    private final StateConfig config;
    private final Predicate<V> finished;
    private final IMap<String, Long> tombs;
    private final AtomicLong expired = new AtomicLong();

    ClusterRetention(StateConfig config, Predicate<V> finished, IMap<String, Long> tombs) {
        this.config = config;
        this.finished = finished;
        this.tombs = tombs;
    }

    long now() {
        return config.clock().millis();
    }

    int maxEntries() {
        return config.maxEntries();
    }

    Optional<Instant> expiredAt(String key) {
        return Optional.ofNullable(tombs.get(key)).map(Instant::ofEpochMilli);
    }

    void revived(String key) {
        tombs.delete(key);
    }

    boolean finished(V value) {
        try {
            return finished.test(value);
        } catch (RuntimeException e) {
            return false; // no rules yet, or the machine is gone: kept as live
        }
    }

    /** Removes this member's entries that retention says are due; returns how many. */
    int sweep(IMap<String, String> map, StateCodec<V> codec) {
        long now = now();
        int removed = 0;
        for (String key : map.localKeySet()) {
            String stored = map.get(key);
            if (stored == null) {
                continue;
            }
            long changed = StateCodec.changedAt(stored);
            if (changed < 0) {
                continue; // written before retention existed: judged once it changes again
            }
            long keep = (finished(codec.read(stored).value()) ? config.retention() : config.idleRetention()).toMillis();
            if (now - changed >= keep && map.remove(key, stored)) {
                tombs.set(key, now, config.tombstoneRetention().toMillis(), TimeUnit.MILLISECONDS);
                removed++;
            }
        }
        expired.addAndGet(removed);
        return removed;
    }

    /** This member's share: live, finished, tombstones, expired by this member since it started. */
    long[] counts(IMap<String, String> map, StateCodec<V> codec) {
        long[] c = new long[4];
        for (String key : map.localKeySet()) {
            String stored = map.get(key);
            if (stored != null) {
                c[finished(codec.read(stored).value()) ? 1 : 0]++;
            }
        }
        c[2] = tombs.localKeySet().size();
        c[3] = expired.get();
        return c;
    }
}
