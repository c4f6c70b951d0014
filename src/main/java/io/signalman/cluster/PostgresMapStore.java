package io.signalman.cluster;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one Hazelcast state map through to PostgreSQL: Hazelcast open source keeps
 * nothing on disk, so a cluster whose members all stop would lose its state; with this store an
 * update is in the database before the member acknowledges it (write-through, write delay 0), and
 * a cluster that starts again loads every entry back. Rows are keyed by (store, id); the value is
 * the map's own string, so versions (compare-and-set) survive too. Called on Hazelcast's threads.
 */
final class PostgresMapStore extends PostgresRows<String> {

    PostgresMapStore(StateDatabase db, String store) {
        super(db, "signalman_state", store);
    }

    @Override
    public void storeAll(Map<String, String> entries) {
        db.upsertRows("INSERT INTO signalman_state (store, id, value, changed_at) VALUES (?, ?, ?, now())"
                + " ON CONFLICT (store, id) DO UPDATE SET value = excluded.value, changed_at = now()", store, entries.entrySet(),
                (ps, value) -> ps.setString(3, value));
    }

    @Override
    public Map<String, String> loadAll(Collection<String> keys) {
        return db.with(c -> {
            Map<String, String> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, value FROM signalman_state WHERE store = ? AND id = ANY (?)")) {
                ps.setString(1, store);
                ps.setArray(2, c.createArrayOf("text", keys.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public Iterable<String> loadAllKeys() {
        return db.with(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM signalman_state WHERE store = ?")) {
                ps.setString(1, store);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
            return out;
        });
    }
}
