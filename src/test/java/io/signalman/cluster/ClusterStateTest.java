package io.signalman.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.signalman.packs.StateSpecs;
import io.signalman.TestBundles;
import io.signalman.handoff.ConversationState;
import io.signalman.handoff.HandoffPack;
import io.signalman.json.Json;
import io.signalman.state.MutableClock;
import io.signalman.state.StateConfig;
import io.signalman.state.StateFull;
import io.signalman.state.StateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Retention and the cap on a cluster's state maps, on one Hazelcast member in this JVM
 * with a clock the test moves: the same rules as on a single node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClusterStateTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private HazelcastInstance hz;

    @BeforeAll
    void oneMember() {
        int port = TestBundles.freePort();
        hz = Hazelcast.newHazelcastInstance(Cluster.hazelcastConfig(new ClusterConfig("127.0.0.1", port, List.of("127.0.0.1:" + port))));
    }

    @AfterAll
    void stop() {
        hz.shutdown();
    }

    @Test
    void finishedConversationsExpireAfterTheRetentionAndTheCapRefusesCreates() throws Exception {
        MutableClock clock = new MutableClock(T0);
        StateConfig config = new StateConfig(true, Duration.ofDays(7), Duration.ofDays(30), 2, null, clock);
        ClusterState state = new ClusterState(hz, config, StateSpecs.all(TestBundles::shipped));
        StateStore<ConversationState> talks = state.stores().named(HandoffPack.NAME);
        talks.create("ended", conversation("ended"));
        talks.create("running", conversation("running"));

        // The cap: a third create is refused
        assertThrows(StateFull.class, () -> talks.create("third", conversation("running")));
        assertEquals(List.of(1L, 1L, 0L, 0L), List.of(counts(state)));

        // Seven days on, the ended one expires and says when; the running one stays
        clock.advance(Duration.ofDays(7));
        assertEquals(1, state.sweep());
        assertEquals(Optional.empty(), talks.get("ended"));
        assertEquals(Optional.of(T0.plus(Duration.ofDays(7))), talks.expiredAt("ended"));
        assertTrue(talks.get("running").isPresent());
        assertEquals(List.of(1L, 0L, 1L, 1L), List.of(counts(state)));

        // ... and thirty days after its last change, the idle one too
        clock.advance(Duration.ofDays(23));
        assertEquals(1, state.sweep());
        assertTrue(talks.expiredAt("running").isPresent());
        // ... which makes room again
        assertTrue(talks.create("third", conversation("running")).isPresent());
        assertEquals(Optional.empty(), talks.expiredAt("third"));
    }

    private static Long[] counts(ClusterState state) {
        long[] c = state.counts().get(HandoffPack.NAME);
        return new Long[] {c[0], c[1], c[2], c[3]};
    }

    private static ConversationState conversation(String status) throws Exception {
        return ConversationState.fromJson(Json.parse("{\"crew\": \"exam\", \"status\": \"" + status
                + "\", \"current_agent\": \"teacher\", \"reported\": [], \"handoff_count\": 0}"));
    }
}
