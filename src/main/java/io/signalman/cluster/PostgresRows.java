package io.signalman.cluster;

import com.hazelcast.map.MapStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What the two PostgreSQL stores behind Hazelcast maps share: rows keyed by (store, id) in one
 * table, and Hazelcast's one-key calls answered by the batch ones, so that each store writes and
 * reads its table in one place. Called on Hazelcast's threads (blocking).
 */
abstract class PostgresRows<T> implements MapStore<String, T> {

    protected final StateDatabase db;
    protected final String store;
    private final String table;

    PostgresRows(StateDatabase db, String table, String store) {
        this.db = db;
        this.table = table;
        this.store = store;
    }

    @Override
    public final void store(String key, T value) {
        storeAll(Map.of(key, value));
    }

    @Override
    public final void delete(String key) {
        deleteAll(List.of(key));
    }

    @Override
    public final void deleteAll(Collection<String> keys) {
        db.deleteRows(table, store, keys);
    }

    @Override
    public final T load(String key) {
        return loadAll(List.of(key)).get(key);
    }
}
