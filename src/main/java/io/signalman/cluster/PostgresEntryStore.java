package io.signalman.cluster;

import com.hazelcast.map.EntryLoader.MetadataAwareValue;
import com.hazelcast.map.EntryStore;
import java.nio.ByteBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Writes a Hazelcast map whose entries expire by themselves (time to live) through to PostgreSQL,
 * with their expiry: a cluster's idempotency answers and its tombstones of expired
 * state. Hazelcast hands each write over with the time its entry expires
 * ({@link EntryStore}), and an entry loaded back gets the rest of its time to live, so a cluster
 * that restarts keeps an answer for what remained of its window, not for a new one.
 *
 * <p>Rows live in {@code signalman_expiring}, keyed by (store, id). A load never returns a row
 * past its expiry, nor one within {@link #LOAD_MARGIN} of it (by the member's clock, the one
 * Hazelcast expires entries by); such rows are left for {@link StateDatabase#purgeExpired}. Values that {@link Codec#kept} refuses are not written at
 * all: an idempotency claim (a request still running) lapses within seconds, and a cluster that
 * restarts has no request running. This is sound only because such a value never replaces a live
 * row: a claim is a {@code putIfAbsent}, which Hazelcast answers from the database first on a
 * miss. Called on Hazelcast's threads (blocking).
 */
final class PostgresEntryStore<V> extends PostgresRows<MetadataAwareValue<V>> implements EntryStore<String, V> {

    /** How a map's values become bytes and back, and which of them are written at all. */
    record Codec<V>(Function<V, byte[]> write, Function<byte[], V> read, Predicate<V> kept) {

        static Codec<byte[]> bytes(Predicate<byte[]> kept) {
            return new Codec<>(Function.identity(), Function.identity(), kept);
        }

        static Codec<Long> longs() {
            return new Codec<>(v -> ByteBuffer.allocate(Long.BYTES).putLong(v).array(), b -> ByteBuffer.wrap(b).getLong(),
                    v -> true);
        }
    }

    /**
     * NOTE: Hazelcast 5.3.8 answers an operation whose loaded entry has expired by the time it is
     * applied with the loader's wrapper instead of nothing ({@code putIfAbsent} then fails to
     * serialize it; seen in testing with a row loaded past its expiry). So a row is loaded only
     * while it has this long left to live: an answer in the last seconds of its window counts as
     * gone, and its retry runs again, as it would a moment later.
     */
    static final long LOAD_MARGIN_MILLIS = 5_000;

    private final Codec<V> codec;
    private final boolean preload;

    /**
     * @param preload whether a map that starts loads every live row at once ({@code loadAllKeys});
     *                otherwise an entry is loaded when a key is missed, so memory holds what is used
     */
    PostgresEntryStore(StateDatabase db, String store, Codec<V> codec, boolean preload) {
        super(db, "signalman_expiring", store);
        this.codec = codec;
        this.preload = preload;
    }

    @Override
    public void storeAll(Map<String, MetadataAwareValue<V>> entries) {
        List<Map.Entry<String, MetadataAwareValue<V>>> kept = entries.entrySet().stream()
                .filter(e -> codec.kept().test(e.getValue().getValue())).toList();
        if (kept.isEmpty()) {
            return;
        }
        db.upsertRows("INSERT INTO signalman_expiring (store, id, value, expires_at) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (store, id) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at", store, kept,
                (ps, value) -> {
                    long expires = value.getExpirationTime();
                    ps.setBytes(3, codec.write().apply(value.getValue()));
                    ps.setTimestamp(4, expires == MetadataAwareValue.NO_TIME_SET ? null : new Timestamp(expires));
                });
    }

    @Override
    public Map<String, MetadataAwareValue<V>> loadAll(Collection<String> keys) {
        return db.with(c -> {
            Map<String, MetadataAwareValue<V>> out = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, value, expires_at FROM signalman_expiring"
                    + " WHERE store = ? AND id = ANY (?) AND (expires_at IS NULL OR expires_at > ?)")) {
                ps.setString(1, store);
                ps.setArray(2, c.createArrayOf("text", keys.toArray()));
                ps.setTimestamp(3, loadable());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        V value = codec.read().apply(rs.getBytes(2));
                        Timestamp expires = rs.getTimestamp(3);
                        out.put(rs.getString(1), expires == null ? new MetadataAwareValue<>(value)
                                : new MetadataAwareValue<>(value, expires.getTime()));
                    }
                }
            }
            return out;
        });
    }

    @Override
    public Iterable<String> loadAllKeys() {
        if (!preload) {
            return List.of();
        }
        return db.with(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM signalman_expiring"
                    + " WHERE store = ? AND (expires_at IS NULL OR expires_at > ?)")) {
                ps.setString(1, store);
                ps.setTimestamp(2, loadable());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
            return out;
        });
    }

    /** The earliest expiry a row may have to be loaded. */
    private static Timestamp loadable() {
        return new Timestamp(System.currentTimeMillis() + LOAD_MARGIN_MILLIS);
    }
}
