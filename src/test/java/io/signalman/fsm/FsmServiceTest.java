package io.signalman.fsm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Refused;
import io.signalman.json.Json;
import io.signalman.state.InMemoryStateStore;
import io.signalman.state.StateStore;
import io.signalman.state.Versioned;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** FSM instances: atomic transitions, refusals that change nothing, serial order. */
class FsmServiceTest {

    /** A store that keeps every successful compare-and-set, in version order. */
    static final class RecordingStore implements StateStore<FsmInstance> {
        final InMemoryStateStore<FsmInstance> inner = new InMemoryStateStore<>();
        final List<Versioned<FsmInstance>> writes = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Optional<Versioned<FsmInstance>> get(String key) {
            return inner.get(key);
        }

        @Override
        public Optional<Versioned<FsmInstance>> create(String key, FsmInstance value) {
            return inner.create(key, value);
        }

        @Override
        public Optional<Versioned<FsmInstance>> compareAndSet(String key, long expected, FsmInstance next) {
            Optional<Versioned<FsmInstance>> r = inner.compareAndSet(key, expected, next);
            r.ifPresent(writes::add);
            return r;
        }

        @Override
        public Versioned<FsmInstance> put(String key, FsmInstance value) {
            return inner.put(key, value);
        }

        @Override
        public int size() {
            return inner.size();
        }

        @Override
        public void forEach(java.util.function.BiConsumer<String, Versioned<FsmInstance>> visitor) {
            inner.forEach(visitor);
        }
    }

    private static FsmService service(StateStore<FsmInstance> store) {
        return new FsmService(store, TestBundles::shipped, Packs.FSM);
    }

    @Test
    void concurrentActionsOnOneInstanceApplyAsSomeSerialOrder() throws Exception {
        RecordingStore store = new RecordingStore();
        FsmService fsm = service(store);
        fsm.create("t", "transaction");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<FsmService.Applied>> results = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String action = i % 2 == 0 ? "begin" : "abort";
            results.add(pool.submit(() -> fsm.act("t", action, null, false)));
        }
        int moves = 0;
        for (Future<FsmService.Applied> r : results) {
            if (r.get().decision().outcome() instanceof FsmOutcome.Moved) {
                moves++;
            }
        }
        pool.shutdown();

        assertEquals(moves, store.writes.size(), "every reported move was written exactly once");
        // Two threads may record their (successful, ordered) writes in the other order: the list
        // is appended after the compare-and-set, so it is checked in version order.
        List<Versioned<FsmInstance>> writes = new ArrayList<>(store.writes);
        writes.sort(java.util.Comparator.comparingLong(Versioned::version));
        String state = "idle";
        for (int i = 0; i < writes.size(); i++) {
            Versioned<FsmInstance> w = writes.get(i);
            assertEquals(i + 2, w.version(), "versions follow one another: no write was lost or doubled");
            assertTrue(!w.value().currentState().equals(state), "each write moves from the state the previous one left");
            state = w.value().currentState();
        }
        assertEquals(state, fsm.get("t").currentState());
    }

    @Provide
    Arbitrary<List<String>> actionSequences() {
        return Arbitraries.of("start", "finish", "review", "restart", "begin", "commit", "bogus").list().ofMaxSize(30);
    }

    @Property(tries = 200)
    void theStateIsAlwaysOneTheMachineDefinesAndRefusalsChangeNothing(@ForAll("actionSequences") List<String> actions,
                                                                        @ForAll("qualities") Double quality) {
        FsmService fsm = service(new InMemoryStateStore<>());
        fsm.create("r", "review-flow");
        Machine machine = fsm.machines().machine("review-flow").orElseThrow();
        for (String action : actions) {
            String before = fsm.get("r").currentState();
            var payload = quality == null ? null : Json.object().put("quality", quality);
            FsmOutcome outcome = fsm.act("r", action, payload, false).decision().outcome();
            String after = fsm.get("r").currentState();
            assertTrue(machine.defines(after), after);
            if (outcome instanceof FsmOutcome.Moved m) {
                assertEquals(before, m.from());
                assertEquals(m.to(), after);
            } else {
                assertEquals(before, after, "a refused " + action + " changed the state");
            }
        }
    }

    @Provide
    Arbitrary<Double> qualities() {
        return Arbitraries.doubles().between(0, 1).injectNull(0.2);
    }

    @Test
    void aReviewWithoutAQualityIsRevisedNotDone() {
        FsmService fsm = service(new InMemoryStateStore<>());
        fsm.create("r", "review-flow");
        fsm.act("r", "start", null, false);
        assertEquals(new FsmOutcome.Moved("review-flow", "running", "revising"),
                fsm.act("r", "review", Json.object().put("comment", "no score"), false).decision().outcome());
    }

    @Test
    void anUnapprovedCommitIsGuardRejectedNamingTheGuard() {
        FsmService fsm = service(new InMemoryStateStore<>());
        fsm.create("t", "transaction");
        fsm.act("t", "begin", null, false);
        FsmOutcome o = fsm.act("t", "commit", Json.object().put("approved", false), false).decision().outcome();
        assertEquals(new FsmOutcome.GuardRejected("processing", "commit", List.of("an approved commit completes the transaction")), o);
        assertEquals("processing", fsm.get("t").currentState());
    }

    @Test
    void anActionWithNoRuleIsAnInvalidTransitionListingTheValidActionsSorted() {
        FsmService fsm = service(new InMemoryStateStore<>());
        fsm.create("t", "transaction");
        fsm.act("t", "begin", null, false);
        assertInstanceOf(FsmOutcome.InvalidTransition.class, fsm.act("t", "start", null, false).decision().outcome());
        assertEquals(new FsmOutcome.InvalidTransition("processing", "start", List.of("abort", "commit")),
                fsm.act("t", "start", null, false).decision().outcome());
    }

    @Test
    void restoringAnUnknownStateOrMachineIsRefusedAndUnknownInstancesAreNotFound() {
        FsmService fsm = service(new InMemoryStateStore<>());
        assertEquals(Refused.Kind.UNPROCESSABLE, assertThrows(Refused.class,
                () -> fsm.restore("x", new FsmInstance("transaction", "limbo"))).kind());
        assertEquals(Refused.Kind.UNPROCESSABLE, assertThrows(Refused.class,
                () -> fsm.restore("x", new FsmInstance("nope", "idle"))).kind());
        assertEquals(Refused.Kind.NOT_FOUND, assertThrows(Refused.class, () -> fsm.act("x", "begin", null, false)).kind());
        assertEquals(Refused.Kind.CONFLICT, assertThrows(Refused.class, () -> {
            fsm.create("y", "transaction");
            fsm.create("y", "transaction");
        }).kind());
    }
}
