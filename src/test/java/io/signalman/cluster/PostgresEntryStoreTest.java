package io.signalman.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.signalman.Await;
import io.signalman.packs.StateSpecs;
import io.signalman.TestBundles;
import io.signalman.TestPostgres;
import io.signalman.handoff.ConversationState;
import io.signalman.handoff.HandoffPack;
import io.signalman.json.Json;
import io.signalman.state.MutableClock;
import io.signalman.state.SharedAnswers;
import io.signalman.state.StateConfig;
import io.signalman.state.StateStore;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Idempotency answers and tombstones written through to a real PostgreSQL, on
 * Hazelcast members in this JVM configured as {@code serve --cluster --state-jdbc} configures
 * them: what a cluster that stops entirely and starts again still answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PostgresEntryStoreTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final byte[] DIGEST = {1, 2, 3};
    private static final byte[] BODY = "{\"decision_id\": \"d-1\", \"to\": \"processing\"}".getBytes(StandardCharsets.UTF_8);
    private static final Duration CLAIM = Duration.ofSeconds(30);

    private TestPostgres pg;
    private StateDatabase db;

    @BeforeAll
    void database() throws Exception {
        pg = TestPostgres.start();
        db = new StateDatabase(pg.jdbcUrl(), Map.of("PGUSER", "signalman")).migrate();
    }

    @AfterAll
    void stop() throws Exception {
        pg.close();
    }

    /** A cluster of one member whose maps write through to the database. */
    private HazelcastInstance member() {
        int port = TestBundles.freePort();
        Config config = Cluster.hazelcastConfig(new ClusterConfig("127.0.0.1", port, List.of("127.0.0.1:" + port)));
        Cluster.writeThrough(config, db);
        return Hazelcast.newHazelcastInstance(config);
    }

    @Test
    void answersAndTombstonesSurviveAWholeClusterRestart() throws Exception {
        MutableClock clock = new MutableClock(T0);
        StateConfig config = new StateConfig(true, Duration.ofDays(7), Duration.ofDays(30), 100, pg.jdbcUrl(), clock);
        // Given a cluster that answered a request, has one still running, answered one with a short
        // window, and expired a finished conversation
        HazelcastInstance first = member();
        try {
            SharedAnswers answers = new HazelcastAnswers(first.getMap(Cluster.ANSWERS));
            assertTrue(answers.claim("answered", DIGEST, CLAIM).isEmpty());
            answers.complete("answered", DIGEST, 201, BODY, Duration.ofMinutes(10));
            assertTrue(answers.claim("running", DIGEST, CLAIM).isEmpty());
            assertTrue(answers.claim("short", DIGEST, CLAIM).isEmpty());
            answers.complete("short", DIGEST, 200, BODY, Duration.ofMillis(300));
            ClusterState state = new ClusterState(first, config, StateSpecs.all(TestBundles::shipped), db::purgeExpired);
            StateStore<ConversationState> talks = state.stores().named(HandoffPack.NAME);
            talks.create("ended", conversation("ended"));
            clock.advance(Duration.ofDays(7));
            assertEquals(1, state.sweep());
        } finally {
            // When the whole cluster stops
            first.shutdown();
        }
        Await.until(Duration.ofSeconds(30), "the short answer's window to pass",
                () -> expiresAt("idempotency", "short") < System.currentTimeMillis());

        // ... and starts again
        HazelcastInstance again = member();
        try {
            SharedAnswers answers = new HazelcastAnswers(again.getMap(Cluster.ANSWERS));
            // Then a retry gets the first answer, byte for byte, for the rest of its window only
            SharedAnswers.Held held = answers.claim("answered", DIGEST, CLAIM).orElseThrow();
            assertEquals(201, held.status());
            assertArrayEquals(BODY, held.body());
            assertArrayEquals(DIGEST, held.digest());
            long expires = again.<String, byte[]>getMap(Cluster.ANSWERS).getEntryView("answered").getExpirationTime();
            assertTrue(Math.abs(expires - expiresAt("idempotency", "answered")) < 1000,
                    "the window goes on from where it was, not from the restart: " + expires);
            // ... a request that was still running was never stored, so its retry runs
            assertTrue(answers.claim("running", DIGEST, CLAIM).isEmpty());
            // ... and an answer past its window is not loaded back
            assertTrue(answers.claim("short", DIGEST, CLAIM).isEmpty());

            // ... and the expired conversation still says when it expired
            ClusterState state = new ClusterState(again, config, StateSpecs.all(TestBundles::shipped), db::purgeExpired);
            StateStore<ConversationState> talks = state.stores().named(HandoffPack.NAME);
            assertEquals(Optional.of(T0.plus(Duration.ofDays(7))), talks.expiredAt("ended"));
            assertEquals(1L, state.counts().get(HandoffPack.NAME)[2], "the tombstone is counted as soon as the member serves");

            // ... and the expired answer's row is deleted by the upkeep, the live ones are kept
            assertEquals(1, state.purge());
            assertEquals(List.of("expired.handoff/ended", "idempotency/answered"), rows());
        } finally {
            again.shutdown();
        }
    }

    @Test
    void anAnswerEvictedFromMemoryIsStillAnsweredFromTheDatabase() {
        HazelcastInstance hz = member();
        try {
            IMap<String, byte[]> map = hz.getMap(Cluster.ANSWERS);
            SharedAnswers answers = new HazelcastAnswers(map);
            assertTrue(answers.claim("evicted", DIGEST, CLAIM).isEmpty());
            answers.complete("evicted", DIGEST, 201, BODY, Duration.ofMinutes(10));

            // Given the answer evicted from memory (as the memory bound evicts the least recently used)
            map.evict("evicted");
            // Then a retry's claim finds it in the database
            SharedAnswers.Held held = answers.claim("evicted", DIGEST, CLAIM).orElseThrow();
            assertEquals(201, held.status());
            assertArrayEquals(BODY, held.body());

            // ... and a released key is gone from the database too, so a retry runs again
            answers.release("evicted");
            map.evict("evicted");
            assertTrue(answers.claim("evicted", DIGEST, CLAIM).isEmpty());
            assertTrue(rows().stream().noneMatch(r -> r.endsWith("/evicted")), "a claim is never written: " + rows());
        } finally {
            hz.shutdown();
        }
    }

    private long expiresAt(String store, String id) {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT expires_at FROM signalman_expiring WHERE store = ? AND id = ?")) {
                ps.setString(1, store);
                ps.setString(2, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new AssertionError("no row for " + store + "/" + id);
                    }
                    return rs.getTimestamp(1).getTime();
                }
            }
        });
    }

    /** Every row as {@code store/id}, sorted. */
    private List<String> rows() {
        return db.with(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT store || '/' || id FROM signalman_expiring ORDER BY 1");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    private static ConversationState conversation(String status) throws Exception {
        return ConversationState.fromJson(Json.parse("{\"crew\": \"exam\", \"status\": \"" + status
                + "\", \"current_agent\": \"teacher\", \"reported\": [], \"handoff_count\": 0}"));
    }
}
