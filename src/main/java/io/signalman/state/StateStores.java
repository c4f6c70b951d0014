package io.signalman.state;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * One server's state stores, by name ("fsm", "handoff"). They live as long as the server, so
 * state survives every rule reload. In memory by default; a cluster supplies shared stores
 * through the factory instead.
 */
public final class StateStores {

    private final ConcurrentMap<String, StateStore<?>> stores = new ConcurrentHashMap<>();
    private final Function<String, StateStore<?>> factory;

    /** In-memory stores: one node's state. */
    public StateStores() {
        this(name -> new InMemoryStateStore<>());
    }

    /** Stores made by {@code factory}, once per name. */
    public StateStores(Function<String, StateStore<?>> factory) {
        this.factory = factory;
    }

    /** The stores of {@code byName}, all made beforehand: a name it lacks is refused, naming the ones it has. */
    public static StateStores of(Map<String, ? extends StateStore<?>> byName) {
        return new StateStores(name -> {
            StateStore<?> s = byName.get(name);
            if (s == null) {
                throw new IllegalArgumentException("no state store \"" + name + "\"; known: " + byName.keySet());
            }
            return s;
        });
    }

    @SuppressWarnings("unchecked")
    public <V> StateStore<V> named(String name) {
        return (StateStore<V>) stores.computeIfAbsent(name, factory);
    }
}
