package io.signalman.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.state.StoreSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.function.Consumer;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.flywaydb.core.Flyway;

/**
 * A cluster's shared PostgreSQL ({@code --state-jdbc}). The schema is created or
 * migrated at start by Flyway from {@code db/migration} (several nodes starting at once are
 * serialized by Flyway's lock). The user and password come from the environment only:
 * {@code SIGNALMAN_STATE_JDBC_USER} and {@code SIGNALMAN_STATE_JDBC_PASSWORD}, else PostgreSQL's own
 * {@code PGUSER} and {@code PGPASSWORD}; never from the command line, where {@code ps} shows them.
 * Connections are reused from a small pool of idle ones.
 */
public final class StateDatabase {

    private final String url;
    private final Properties credentials = new Properties();
    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();

    public StateDatabase(String url, Map<String, String> env) {
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--state-jdbc takes a jdbc:postgresql://host:port/database URL, not " + url);
        }
        this.url = url;
        String user = env.getOrDefault("SIGNALMAN_STATE_JDBC_USER", env.get("PGUSER"));
        String password = env.getOrDefault("SIGNALMAN_STATE_JDBC_PASSWORD", env.get("PGPASSWORD"));
        if (user != null) {
            credentials.setProperty("user", user);
        }
        if (password != null) {
            credentials.setProperty("password", password);
        }
    }

    /** Creates or migrates the schema; blocking, at start. */
    public StateDatabase migrate() {
        Flyway.configure().dataSource(url, credentials.getProperty("user"), credentials.getProperty("password"))
                .locations("classpath:db/migration").table("signalman_schema_history").load().migrate();
        return this;
    }

    /**
     * The cluster's audit log as its table holds it ({@code control.audit}), oldest first: one
     * entry a line, as written, for {@code signalman audit verify --state-jdbc} to prove.
     */
    public java.util.List<String> auditEntries() {
        return with(c -> {
            java.util.List<String> out = new java.util.ArrayList<>();
            try (java.sql.PreparedStatement ps = c.prepareStatement(
                    "SELECT value FROM signalman_state WHERE store = ? ORDER BY id")) {
                ps.setString(1, HazelcastControl.MAPS.substring(Cluster.PREFIX.length()) + "audit");
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
            return out;
        });
    }

    /** Runs {@code work} on a pooled connection (autocommit: each statement is its own transaction). */
    <T> T with(Work<T> work) {
        Connection c = idle.poll();
        try {
            if (c == null || c.isClosed()) {
                c = DriverManager.getConnection(url, credentials);
            }
            T out = work.run(c);
            idle.offer(c);
            return out;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new IllegalStateException("the state database failed: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing: the first error is the one reported
            }
        }
    }

    /**
     * Writes one store's rows with {@code upsert}, whose first two parameters are the store and the
     * id; {@code bind} sets the rest from the row's value. One batch for all of them (a map
     * store's {@code store} and {@code storeAll}). Blocking.
     */
    <V> void upsertRows(String upsert, String store, java.util.Collection<Map.Entry<String, V>> rows, RowBinder<V> bind) {
        with(c -> {
            try (PreparedStatement ps = c.prepareStatement(upsert)) {
                for (Map.Entry<String, V> row : rows) {
                    ps.setString(1, store);
                    ps.setString(2, row.getKey());
                    bind.bind(ps, row.getValue());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    /** Sets a row's parameters after the store and the id. */
    @FunctionalInterface
    interface RowBinder<V> {
        void bind(PreparedStatement ps, V value) throws SQLException;
    }

    /**
     * Deletes one store's rows of {@code table} with the given ids (a map store's {@code delete}
     * and {@code deleteAll}); one statement for all of them. Blocking.
     */
    void deleteRows(String table, String store, java.util.Collection<String> ids) {
        with(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE store = ? AND id = ANY (?)")) {
                ps.setString(1, store);
                ps.setArray(2, c.createArrayOf("text", ids.toArray()));
                ps.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Deletes idempotency answers and tombstones past their expiry ({@link PostgresEntryStore});
     * returns how many. Loads already skip them: this only keeps the table as small as what is
     * live. Every member runs it now and then; two at once delete each row once. Blocking.
     */
    public int purgeExpired() {
        return with(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM signalman_expiring WHERE expires_at <= ?")) {
                ps.setTimestamp(1, new java.sql.Timestamp(System.currentTimeMillis()));
                return ps.executeUpdate();
            }
        });
    }

    /** Every row as a {@code StateLine} ({@code signalman state export --state-jdbc}). */
    public void export(Consumer<ObjectNode> out) {
        with(c -> {
            // Pack state only: the control plane's rows (control.*) are the cluster's records, backed up with the database.
            try (PreparedStatement ps = c.prepareStatement("SELECT store, id, value, changed_at FROM signalman_state"
                    + " WHERE store NOT LIKE 'control.%' ORDER BY store, id");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    JsonNode stored = Json.parse(rs.getString(3));
                    ObjectNode line = Json.object();
                    line.put("store", rs.getString(1));
                    line.put("id", rs.getString(2));
                    line.put("version", stored.path("version").asLong());
                    line.put("changed_at", rs.getTimestamp(4).toInstant().toString());
                    line.set("value", stored.get("value"));
                    out.accept(line);
                }
            } catch (InputException e) {
                throw new SQLException("a stored state is not JSON: " + e.getMessage(), e);
            }
            return null;
        });
    }

    /**
     * Writes an exported entry ({@code signalman state import --state-jdbc}) as the cluster's maps
     * store it; the value is read with its store's reader first, so a bad line is refused. Into a
     * stopped cluster: running members would not see rows written behind their maps.
     */
    public <V> void importLine(StoreSpec<V> spec, String id, long version, JsonNode value) {
        StateCodec<V> codec = new StateCodec<>(spec);
        // Imported now: retention measures from the import, as for any other change.
        String stored = codec.write(codec.read(Json.write(Json.object().put("version", version).set("value", value))),
                System.currentTimeMillis());
        new PostgresMapStore(this, spec.name()).store(id, stored);
    }

    @Override
    public String toString() {
        return url;
    }
}
