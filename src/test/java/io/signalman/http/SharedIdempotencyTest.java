package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.engine.Refused;
import io.signalman.state.SharedAnswers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Idempotency across the nodes of a cluster: two nodes' {@link Idempotency} over one
 * {@link SharedAnswers}, as {@code serve --cluster} wires them, so a retry sent to the other node
 * is answered and not run again. (The Hazelcast implementation is tested on two real members in
 * {@code HazelcastStateStoreTest}; here the sharing itself.)
 */
class SharedIdempotencyTest {

    /** Answers in one map, as the cluster map holds them (without the time to live). */
    static final class OneMap implements SharedAnswers {
        final Map<String, Held> held = new ConcurrentHashMap<>();

        @Override
        public Optional<Held> claim(String id, byte[] digest, Duration reserve) {
            return Optional.ofNullable(held.putIfAbsent(id, new Held(digest, -1, null)));
        }

        @Override
        public void complete(String id, byte[] digest, int status, byte[] body, Duration window) {
            held.put(id, new Held(digest, status, body));
        }

        @Override
        public void release(String id) {
            held.remove(id);
        }
    }

    private final OneMap shared = new OneMap();
    private final Idempotency nodeA = new Idempotency(Duration.ofMinutes(10), 1000, shared, Duration.ofSeconds(7));
    private final Idempotency nodeB = new Idempotency(Duration.ofMinutes(10), 1000, shared, Duration.ofSeconds(7));
    private final AtomicInteger runs = new AtomicInteger();

    private Api.Reply decide() {
        return new Api.Reply(200, ("{\"decision\": " + runs.incrementAndGet() + "}").getBytes(StandardCharsets.UTF_8));
    }

    private static Idempotency.Key key(String body) {
        return Idempotency.key("POST /v1/fsm/instances/:id/actions", "retry-1", body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aRetryOnAnotherNodeGetsTheFirstAnswerAndRunsNothing() throws Exception {
        Api.Reply first = nodeA.once(key("{\"action\": \"start\"}"), this::decide);
        Api.Reply retry = nodeB.once(key("{\"action\": \"start\"}"), this::decide);

        assertEquals(1, runs.get(), "the work ran once in the whole cluster");
        assertArrayEquals(first.body(), retry.body());
        assertEquals(first.status(), retry.status());
        assertTrue(retry.replayed());
    }

    @Test
    void theSameKeyWithAnotherBodyOnAnotherNodeIsRefused() throws Exception {
        nodeA.once(key("{\"action\": \"start\"}"), this::decide);
        Refused e = assertThrows(Refused.class, () -> nodeB.once(key("{\"action\": \"finish\"}"), this::decide));
        assertEquals("idempotency_key_reused", e.code());
    }

    @Test
    void whileTheFirstRunsOnOneNodeARetryOnTheOtherIsTold409() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread first = new Thread(() -> {
            try {
                nodeA.once(key("{}"), () -> {
                    started.countDown();
                    release.await();
                    return decide();
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        first.start();
        started.await();
        ApiError.Raised e = assertThrows(ApiError.Raised.class, () -> nodeB.once(key("{}"), this::decide));
        assertEquals(409, ApiError.from(e).status());
        assertEquals("idempotency_key_in_progress", ApiError.from(e).code());
        release.countDown();
        first.join();
        assertEquals(1, runs.get());
        assertTrue(nodeB.once(key("{}"), this::decide).replayed(), "once it is done, the other node answers it");
    }

    @Test
    void aServerErrorReleasesTheKeySoARetryElsewhereRunsAgain() throws Exception {
        assertThrows(ApiError.Raised.class, () -> nodeA.once(key("{}"), () -> {
            throw new IllegalStateException("our bug");
        }));
        assertTrue(shared.held.isEmpty(), "the claim was given up");
        Api.Reply retry = nodeB.once(key("{}"), this::decide);
        assertEquals(200, retry.status());
        assertEquals(1, runs.get());
    }
}
