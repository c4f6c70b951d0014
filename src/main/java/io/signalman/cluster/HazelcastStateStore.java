package io.signalman.cluster;

import com.hazelcast.map.IMap;
import io.signalman.state.StateStore;
import io.signalman.state.Versioned;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * A {@link StateStore} in a Hazelcast map shared by every node. Each key lives on one
 * partition owner with a synchronous backup on another member, so an update acknowledged to a
 * client survives the loss of any one member once the cluster is safe (backups in sync).
 * Compare-and-set is {@code IMap.replace(key, expected, next)} on the stored string, which holds
 * the version: of two nodes updating from the same version, exactly one wins. Blocking (network
 * calls): call from worker threads, never from an event loop.
 */
final class HazelcastStateStore<V> implements StateStore<V> {

    private final IMap<String, String> map;
    private final StateCodec<V> codec;
    /** Retention and the cap, or null for neither. */
    private final ClusterRetention<V> retention;

    HazelcastStateStore(IMap<String, String> map, StateCodec<V> codec) {
        this(map, codec, null);
    }

    HazelcastStateStore(IMap<String, String> map, StateCodec<V> codec, ClusterRetention<V> retention) {
        this.map = map;
        this.codec = codec;
        this.retention = retention;
    }

    private String write(Versioned<V> v) {
        return codec.write(v, retention == null ? -1 : retention.now());
    }

    @Override
    public Optional<java.time.Instant> expiredAt(String key) {
        return retention == null || map.containsKey(key) ? Optional.empty() : retention.expiredAt(key);
    }

    int sweep() {
        return retention == null ? 0 : retention.sweep(map, codec);
    }

    long[] counts() {
        return retention == null ? new long[4] : retention.counts(map, codec);
    }

    /** A create beyond the cap is refused (a cluster-wide count: close to the cap, not exact under a race). */
    private void checkRoom() {
        if (retention != null && map.size() >= retention.maxEntries()) {
            throw new io.signalman.state.StateFull(map.getName().substring(Cluster.STATE_MAPS.length()), retention.maxEntries());
        }
    }

    private Versioned<V> created(String key, Versioned<V> fresh) {
        if (retention != null) {
            retention.revived(key);
        }
        return fresh;
    }

    @Override
    public Optional<Versioned<V>> get(String key) {
        return Optional.ofNullable(map.get(key)).map(codec::read);
    }

    @Override
    public Optional<Versioned<V>> create(String key, V value) {
        checkRoom();
        Versioned<V> fresh = new Versioned<>(value, 1);
        return map.putIfAbsent(key, write(fresh)) == null ? Optional.of(created(key, fresh)) : Optional.empty();
    }

    @Override
    public Optional<Versioned<V>> compareAndSet(String key, long expectedVersion, V next) {
        String current = map.get(key);
        if (current == null) {
            return Optional.empty();
        }
        Versioned<V> stored = codec.read(current);
        if (stored.version() != expectedVersion) {
            return Optional.empty();
        }
        Versioned<V> updated = new Versioned<>(next, expectedVersion + 1);
        return map.replace(key, current, write(updated)) ? Optional.of(updated) : Optional.empty();
    }

    @Override
    public Versioned<V> put(String key, V value) {
        while (true) {
            String current = map.get(key);
            if (current == null) {
                checkRoom();
                Versioned<V> fresh = new Versioned<>(value, 1);
                if (map.putIfAbsent(key, write(fresh)) == null) {
                    return created(key, fresh);
                }
                continue;
            }
            Versioned<V> updated = new Versioned<>(value, codec.read(current).version() + 1);
            if (map.replace(key, current, write(updated))) {
                return updated;
            }
        }
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public void forEach(BiConsumer<String, Versioned<V>> visitor) {
        map.entrySet().forEach(e -> visitor.accept(e.getKey(), codec.read(e.getValue())));
    }
}
