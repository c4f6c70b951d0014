package io.signalman.cluster;

import com.hazelcast.map.IMap;
import io.signalman.state.StateStore;
import io.signalman.state.Versioned;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * A {@link StateStore} in a Hazelcast map shared by every node (SPEC 9). Each key lives on one
 * partition owner with a synchronous backup on another member, so an update acknowledged to a
 * client survives the loss of any one member once the cluster is safe (backups in sync).
 * Compare-and-set is {@code IMap.replace(key, expected, next)} on the stored string, which holds
 * the version: of two nodes updating from the same version, exactly one wins. Blocking (network
 * calls): call from worker threads, never from an event loop.
 */
final class HazelcastStateStore<V> implements StateStore<V> {

    private final IMap<String, String> map;
    private final StateCodec<V> codec;

    HazelcastStateStore(IMap<String, String> map, StateCodec<V> codec) {
        this.map = map;
        this.codec = codec;
    }

    @Override
    public Optional<Versioned<V>> get(String key) {
        return Optional.ofNullable(map.get(key)).map(codec::read);
    }

    @Override
    public Optional<Versioned<V>> create(String key, V value) {
        Versioned<V> fresh = new Versioned<>(value, 1);
        return map.putIfAbsent(key, codec.write(fresh)) == null ? Optional.of(fresh) : Optional.empty();
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
        return map.replace(key, current, codec.write(updated)) ? Optional.of(updated) : Optional.empty();
    }

    @Override
    public Versioned<V> put(String key, V value) {
        while (true) {
            String current = map.get(key);
            if (current == null) {
                Versioned<V> fresh = new Versioned<>(value, 1);
                if (map.putIfAbsent(key, codec.write(fresh)) == null) {
                    return fresh;
                }
                continue;
            }
            Versioned<V> updated = new Versioned<>(value, codec.read(current).version() + 1);
            if (map.replace(key, current, codec.write(updated))) {
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
