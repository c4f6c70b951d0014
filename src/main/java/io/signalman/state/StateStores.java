package io.signalman.state;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One server's state stores, by name ("fsm", "handoff"). They live as long as the server, so
 * state survives every rule reload. In-memory here; a cluster supplies shared stores instead.
 */
public final class StateStores {

    private final ConcurrentMap<String, StateStore<?>> stores = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    public <V> StateStore<V> named(String name) {
        return (StateStore<V>) stores.computeIfAbsent(name, n -> new InMemoryStateStore<V>());
    }
}
