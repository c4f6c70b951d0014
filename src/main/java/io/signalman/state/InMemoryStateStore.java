package io.signalman.state;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** A single node's state: a concurrent map whose per-key updates are atomic. */
public final class InMemoryStateStore<V> implements StateStore<V> {

    private final ConcurrentMap<String, Versioned<V>> map = new ConcurrentHashMap<>();

    @Override
    public Optional<Versioned<V>> get(String key) {
        return Optional.ofNullable(map.get(key));
    }

    @Override
    public Optional<Versioned<V>> create(String key, V value) {
        Versioned<V> fresh = new Versioned<>(value, 1);
        return map.putIfAbsent(key, fresh) == null ? Optional.of(fresh) : Optional.empty();
    }

    @Override
    public Optional<Versioned<V>> compareAndSet(String key, long expectedVersion, V next) {
        Versioned<V>[] stored = newHolder();
        map.computeIfPresent(key, (k, current) -> {
            if (current.version() != expectedVersion) {
                return current;
            }
            stored[0] = new Versioned<>(next, current.version() + 1);
            return stored[0];
        });
        return Optional.ofNullable(stored[0]);
    }

    @Override
    public Versioned<V> put(String key, V value) {
        return map.merge(key, new Versioned<>(value, 1), (old, fresh) -> new Versioned<>(value, old.version() + 1));
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public void forEach(java.util.function.BiConsumer<String, Versioned<V>> visitor) {
        map.forEach(visitor);
    }

    @SuppressWarnings("unchecked")
    private static <V> Versioned<V>[] newHolder() {
        return (Versioned<V>[]) new Versioned<?>[1];
    }
}
