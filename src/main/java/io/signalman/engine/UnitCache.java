package io.signalman.engine;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Built units by key, bounded: a unit is kept while the compile in progress or the one before it
 * used it, so the cache holds at most the units of two bundles however many reloads there are
 * (a refused bundle counts, so fixing its one bad file reuses the rest). Not thread-safe: used
 * by one compile at a time.
 */
final class UnitCache {

    private final Map<String, UnitBuilder.Built> units = new HashMap<>();
    private Set<String> previous = Set.of();
    private final Set<String> current = new HashSet<>();

    /** The built unit of this key, if the current or the previous compile built it; counts as used. */
    UnitBuilder.Built use(String key) {
        current.add(key);
        return units.get(key);
    }

    void put(UnitBuilder.Built built) {
        current.add(built.key());
        units.put(built.key(), built);
    }

    /** Ends a compile: forgets every unit that neither it nor the compile before it used. */
    void endCompile() {
        units.keySet().removeIf(k -> !current.contains(k) && !previous.contains(k));
        previous = Set.copyOf(current);
        current.clear();
    }

    int size() {
        return units.size();
    }
}
