package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.Receipts;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One node's store of one stateful pack: a concurrent map, capped, with retention, and
 * (when {@link LocalState} persists) every change written ahead: a decision's change in its
 * decision-log record ({@code state_after}, through {@code whileHeld}), any other change (create,
 * restore, user input, expiry) in the state journal. Every change of a key happens under that
 * key's lock and the snapshot barrier's read side, so log order is change order for a key and a
 * snapshot sees no change half made. Versions come from one counter for the whole node, so a key
 * removed and created again never reuses a version, and recovery keeps the highest version it
 * reads for each key, whatever file it read it from. Blocking: worker threads only.
 */
final class LocalStateStore<V> implements StateStore<V> {

    /** A value, its version, and when it last changed (epoch millis, on the configured clock). */
    record Held<V>(Versioned<V> versioned, long changedAt) {
    }

    /** What is left of an expired entry: its last version and when it expired. */
    record Tomb(long version, long at) {
    }

    private static final int STRIPES = 256;

    private final StoreSpec<V> spec;
    private final LocalState owner;
    private final ConcurrentHashMap<String, Held<V>> map = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Tomb> tombs = new ConcurrentHashMap<>();
    private final Object[] locks = new Object[STRIPES];
    private final AtomicLong expired = new AtomicLong();

    LocalStateStore(StoreSpec<V> spec, LocalState owner) {
        this.spec = spec;
        this.owner = owner;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    StoreSpec<V> spec() {
        return spec;
    }

    @Override
    public Optional<Versioned<V>> get(String key) {
        Held<V> h = map.get(key);
        return h == null ? Optional.empty() : Optional.of(h.versioned());
    }

    @Override
    public Optional<Instant> expiredAt(String key) {
        Tomb t = tombs.get(key);
        return t == null || map.containsKey(key) ? Optional.empty() : Optional.of(Instant.ofEpochMilli(t.at()));
    }

    @Override
    public Optional<Versioned<V>> create(String key, V value) {
        return change(key, null, current -> current == null, value, true);
    }

    @Override
    public Optional<Versioned<V>> compareAndSet(String key, long expectedVersion, V next) {
        return change(key, null, current -> current != null && current.versioned().version() == expectedVersion, next, false);
    }

    @Override
    public Optional<Versioned<V>> compareAndSet(String key, long expectedVersion, V next, Consumer<Versioned<V>> whileHeld) {
        return change(key, whileHeld, current -> current != null && current.versioned().version() == expectedVersion, next,
                false);
    }

    @Override
    public Versioned<V> put(String key, V value) {
        return change(key, null, current -> true, value, true).orElseThrow();
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public void forEach(BiConsumer<String, Versioned<V>> visitor) {
        map.forEach((k, h) -> visitor.accept(k, h.versioned()));
    }

    /**
     * Makes one change if {@code allowed} holds for the current entry. {@code whileHeld} (a
     * decision's log record, written before it returns) or else the journal records it before the
     * map shows it: a change is visible only once it is written, and a write the disk refuses
     * throws here, changing nothing.
     */
    private Optional<Versioned<V>> change(String key, Consumer<Versioned<V>> whileHeld,
                                          java.util.function.Predicate<Held<V>> allowed, V value, boolean mayAdd) {
        // Refused before anything is decided to change while the disk cannot take writes (503 storage_unavailable).
        owner.ensureWritable();
        Lock barrier = owner.barrier().readLock();
        barrier.lock();
        try {
            synchronized (lock(key)) {
                Held<V> current = map.get(key);
                if (!allowed.test(current)) {
                    return Optional.empty();
                }
                if (current == null && mayAdd && map.size() >= owner.config().maxEntries()) {
                    throw new StateFull(spec.name(), owner.config().maxEntries());
                }
                Versioned<V> next = new Versioned<>(value, owner.nextVersion());
                Held<V> held = new Held<>(next, owner.now());
                if (whileHeld != null) {
                    whileHeld.accept(next);
                } else {
                    owner.journal(line(key, held));
                }
                map.put(key, held);
                tombs.remove(key);
                Receipts.state(spec.name(), key, next.version());
                return Optional.of(next);
            }
        } finally {
            barrier.unlock();
        }
    }

    /** The latest version {@code key} holds, as an entry or a tombstone; 0 for a key never seen. */
    long version(String key) {
        Held<V> h = map.get(key);
        Tomb t = tombs.get(key);
        return Math.max(h == null ? 0 : h.versioned().version(), t == null ? 0 : t.version());
    }

    /** Removes what retention says is due at {@code now}; returns how many entries expired. */
    int sweep(long now) {
        long retention = owner.config().retention().toMillis();
        long idle = owner.config().idleRetention().toMillis();
        int removed = 0;
        for (var e : map.entrySet()) {
            Held<V> h = e.getValue();
            long keep = finished(h.versioned().value()) ? retention : idle;
            if (now - h.changedAt() >= keep && expire(e.getKey(), h, now)) {
                removed++;
            }
        }
        long tombKeep = owner.config().tombstoneRetention().toMillis();
        tombs.entrySet().removeIf(t -> now - t.getValue().at() >= tombKeep);
        expired.addAndGet(removed);
        return removed;
    }

    private boolean expire(String key, Held<V> seen, long now) {
        Lock barrier = owner.barrier().readLock();
        barrier.lock();
        try {
            synchronized (lock(key)) {
                if (map.get(key) != seen) {
                    return false; // changed since the sweep read it: not idle after all
                }
                Tomb tomb = new Tomb(owner.nextVersion(), now);
                owner.journal(tombLine(key, tomb));
                map.remove(key);
                tombs.put(key, tomb);
                return true;
            }
        } finally {
            barrier.unlock();
        }
    }

    boolean finished(V value) {
        try {
            return spec.finished().test(value);
        } catch (RuntimeException e) {
            return false; // no rules loaded yet, or the machine is gone: keep it as live
        }
    }

    /** Counts for /metrics: live entries, finished entries, tombstones of expired ones. */
    long[] counts() {
        long[] c = new long[3];
        map.forEach((k, h) -> c[finished(h.versioned().value()) ? 1 : 0]++);
        c[2] = tombs.size();
        return c;
    }

    long expiredTotal() {
        return expired.get();
    }

    /** Recovery and import: applies a recorded change if it is newer than what the key holds. */
    boolean recover(String key, long version, long changedAt, JsonNode value, Long expiredAt) {
        Held<V> current = map.get(key);
        Tomb tomb = tombs.get(key);
        long have = Math.max(current == null ? 0 : current.versioned().version(), tomb == null ? 0 : tomb.version());
        if (version <= have) {
            return false;
        }
        if (expiredAt != null) {
            map.remove(key);
            tombs.put(key, new Tomb(version, expiredAt));
        } else {
            map.put(key, new Held<>(new Versioned<>(spec.read(value), version), changedAt));
            tombs.remove(key);
        }
        return true;
    }

    /** Visits every entry (not the tombstones) as lines. */
    void entries(Consumer<ObjectNode> out) {
        map.forEach((k, h) -> out.accept(line(k, h)));
    }

    /** Puts an imported value (read with the store's own reader, so a bad one is refused). */
    void importValue(String key, JsonNode value) {
        put(key, spec.read(value));
    }

    /** Visits every entry and tombstone as snapshot lines. */
    void lines(Consumer<ObjectNode> out) {
        map.forEach((k, h) -> out.accept(line(k, h)));
        tombs.forEach((k, t) -> out.accept(tombLine(k, t)));
    }

    /** An entry's line: the snapshot, journal and export format. */
    ObjectNode line(String key, Held<V> h) {
        ObjectNode n = StateLine.head(spec.name(), key, h.versioned().version());
        n.put("changed_at", Instant.ofEpochMilli(h.changedAt()).toString());
        n.set("value", spec.write(h.versioned().value()));
        return n;
    }

    private ObjectNode tombLine(String key, Tomb t) {
        ObjectNode n = StateLine.head(spec.name(), key, t.version());
        n.put("expired_at", Instant.ofEpochMilli(t.at()).toString());
        return n;
    }

    private Object lock(String key) {
        return locks[(key.hashCode() & 0x7fffffff) % STRIPES];
    }
}
