package io.signalman.state;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where stateful packs keep state between requests: FSM instances, handoff
 * conversations. Updates to one key are atomic: of two updates computed from the same version,
 * exactly one succeeds and the other must re-read and re-decide. The in-memory implementation
 * serves one node; a clustered one implements the same contract.
 */
public interface StateStore<V> {

    Optional<Versioned<V>> get(String key);

    /** Stores the first value of a key; empty when the key already exists. */
    Optional<Versioned<V>> create(String key, V value);

    /** Replaces the value if it is still at {@code expectedVersion}; empty when someone was first. */
    Optional<Versioned<V>> compareAndSet(String key, long expectedVersion, V next);

    /**
     * {@link #compareAndSet(String, long, Object)}, calling {@code whileHeld} with the new version
     * before any other change of the key can be made or seen: a durable store writes the
     * decision's log record there (and waits until it is written), so that the decision log holds
     * one key's changes in the order they were made and a change is seen only once its record is
     * in the log. On one node, when {@code whileHeld} throws, nothing changes.
     */
    default Optional<Versioned<V>> compareAndSet(String key, long expectedVersion, V next, Consumer<Versioned<V>> whileHeld) {
        Optional<Versioned<V>> stored = compareAndSet(key, expectedVersion, next);
        stored.ifPresent(whileHeld);
        return stored;
    }

    /** When retention removed {@code key}, while its tombstone is kept; empty for a key never seen. */
    default Optional<Instant> expiredAt(String key) {
        return Optional.empty();
    }

    /** Replaces the value whatever it is (restoring a checkpoint, an admin act). */
    Versioned<V> put(String key, V value);

    int size();

    /** Visits every entry (the reload gate checks that no live state is orphaned). */
    void forEach(java.util.function.BiConsumer<String, Versioned<V>> visitor);
}
