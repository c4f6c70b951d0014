package io.signalman.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.signalman.Await;
import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.fsm.FsmInstance;
import io.signalman.fsm.FsmOutcome;
import io.signalman.fsm.FsmService;
import io.signalman.packs.StateSpecs;
import io.signalman.state.StoreSpec;
import io.signalman.handoff.ConversationState;
import io.signalman.handoff.HandoffPack;
import io.signalman.state.SharedAnswers;
import io.signalman.state.StateStore;
import io.signalman.state.Versioned;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The clustered state store and idempotency answers on two Hazelcast members in
 * this JVM, configured as {@code serve --cluster} configures them: the store contract,
 * compare-and-set across members, claims and answers seen by both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class HazelcastStateStoreTest {

    private HazelcastInstance a;
    private HazelcastInstance b;

    @BeforeAll
    void twoMembers() {
        int pa = TestBundles.freePort();
        int pb = TestBundles.freePort();
        List<String> members = List.of("127.0.0.1:" + pa, "127.0.0.1:" + pb);
        a = Hazelcast.newHazelcastInstance(Cluster.hazelcastConfig(new ClusterConfig("127.0.0.1", pa, members)));
        b = Hazelcast.newHazelcastInstance(Cluster.hazelcastConfig(new ClusterConfig("127.0.0.1", pb, members)));
        Await.until(Duration.ofSeconds(60), "two members to form one cluster",
                () -> a.getCluster().getMembers().size() == 2 && b.getCluster().getMembers().size() == 2);
    }

    @AfterAll
    void stop() {
        b.shutdown();
        a.shutdown();
    }

    private <V> StateStore<V> store(HazelcastInstance hz, String name) {
        @SuppressWarnings("unchecked")
        StoreSpec<V> spec = (StoreSpec<V>) StateSpecs.all(() -> {
            throw new IllegalStateException("no rules here");
        }).stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
        return new HazelcastStateStore<>(hz.getMap(Cluster.STATE_MAPS + name), new StateCodec<>(spec));
    }

    @Test
    void theStoreContractHoldsAcrossMembers() {
        StateStore<FsmInstance> onA = store(a, FsmService.STORE);
        StateStore<FsmInstance> onB = store(b, FsmService.STORE);
        FsmInstance idle = new FsmInstance("transaction", "idle");
        FsmInstance busy = new FsmInstance("transaction", "processing");

        assertEquals(1, onA.create("contract", idle).orElseThrow().version());
        assertTrue(onB.create("contract", busy).isEmpty(), "a key is created once, whichever member asks");
        assertEquals(new Versioned<>(idle, 1), onB.get("contract").orElseThrow());

        assertEquals(new Versioned<>(busy, 2), onB.compareAndSet("contract", 1, busy).orElseThrow());
        assertTrue(onA.compareAndSet("contract", 1, idle).isEmpty(), "a stale version loses");
        assertTrue(onA.compareAndSet("absent", 1, idle).isEmpty(), "no compare-and-set creates a key");
        // The same value stored again is still a new version (idle, processing, idle is a change).
        assertEquals(3, onA.compareAndSet("contract", 2, busy).orElseThrow().version());
        assertEquals(4, onB.put("contract", idle).version(), "a restore is a new version too");
        assertEquals(1, onB.put("restored", idle).version());

        Map<String, Versioned<FsmInstance>> seen = new HashMap<>();
        onA.forEach(seen::put);
        assertEquals(new Versioned<>(idle, 4), seen.get("contract"));
        assertEquals(new Versioned<>(idle, 1), seen.get("restored"));
        assertEquals(seen.size(), onB.size());
    }

    @Test
    void aHandoffConversationReadsBackAsItWasWritten() {
        ConversationState s = new ConversationState("support", ConversationState.Status.RUNNING, "billing", "second_opinion", List.of(), 3);
        StateStore<ConversationState> onA = store(a, HandoffPack.NAME);
        onA.create("c1", s.withReport(new ConversationState.Report("billing", "closer")));
        StateStore<ConversationState> onB = store(b, HandoffPack.NAME);
        assertEquals(s.withReport(new ConversationState.Report("billing", "closer")), onB.get("c1").orElseThrow().value());
    }

    /**
     * 400 actions on one instance from eight threads, half through each member: every move
     * reported is one version, so the version after them all is one more than the moves, and the
     * state is the one their number implies (begin and abort alternate idle and processing).
     */
    @Test
    void concurrentActionsThroughTwoMembersApplyAsSomeSerialOrder() throws Exception {
        FsmService viaA = new FsmService(store(a, FsmService.STORE), TestBundles::shipped, Packs.FSM);
        FsmService viaB = new FsmService(store(b, FsmService.STORE), TestBundles::shipped, Packs.FSM);
        viaA.create("race", "transaction");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<FsmService.Applied>> results = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            FsmService via = i % 4 < 2 ? viaA : viaB;
            String action = i % 2 == 0 ? "begin" : "abort";
            results.add(pool.submit(() -> via.act("race", action, null, false)));
        }
        int moves = 0;
        for (Future<FsmService.Applied> r : results) {
            if (r.get(60, TimeUnit.SECONDS).decision().outcome() instanceof FsmOutcome.Moved) {
                moves++;
            }
        }
        pool.shutdown();
        StateStore<FsmInstance> onB = store(b, FsmService.STORE);
        Versioned<FsmInstance> last = onB.get("race").orElseThrow();
        assertTrue(moves > 1, "the race moved the instance: " + moves);
        assertEquals(moves + 1, last.version(), "one version per reported move: none lost, none doubled");
        assertEquals(moves % 2 == 0 ? "idle" : "processing", last.value().currentState());
    }

    @Test
    void idempotencyAnswersAreClaimedOnceAndSeenByEveryMember() {
        SharedAnswers onA = new HazelcastAnswers(a.getMap(Cluster.ANSWERS));
        SharedAnswers onB = new HazelcastAnswers(b.getMap(Cluster.ANSWERS));
        byte[] digest = {1, 2, 3};
        assertTrue(onA.claim("k1", digest, Duration.ofSeconds(30)).isEmpty(), "the first claim wins");
        SharedAnswers.Held running = onB.claim("k1", digest, Duration.ofSeconds(30)).orElseThrow();
        assertTrue(running.running());
        assertArrayEquals(digest, running.digest());

        onA.complete("k1", digest, 201, "{\"to\": \"running\"}".getBytes(StandardCharsets.UTF_8), Duration.ofMinutes(1));
        SharedAnswers.Held done = onB.claim("k1", digest, Duration.ofSeconds(30)).orElseThrow();
        assertEquals(201, done.status());
        assertEquals("{\"to\": \"running\"}", new String(done.body(), StandardCharsets.UTF_8));

        onB.release("k1");
        assertTrue(onA.claim("k1", digest, Duration.ofSeconds(30)).isEmpty(), "a released key is claimed anew");
        // A claim whose node died is not completed: it lapses after its reservation.
        assertTrue(onA.claim("k2", digest, Duration.ofMillis(1500)).isEmpty());
        Await.until(Duration.ofSeconds(20), "an abandoned claim to lapse", () -> onB.claim("k2", digest, Duration.ofSeconds(30)).isEmpty());
    }
}
