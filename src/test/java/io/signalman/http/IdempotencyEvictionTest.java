package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bound on remembered keys never forgets a key whose request is still running. */
class IdempotencyEvictionTest {

    private static final byte[] BODY = "{\"action\": \"start\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aKeyStillRunningIsNotEvictedSoAConcurrentDuplicateDoesNotRunTwice() throws Exception {
        // Given room for one key, and a request under key "a" still running
        Idempotency keys = new Idempotency(Duration.ofMinutes(10), 1);
        Idempotency.Key a = Idempotency.key("POST /v1/fsm/instances/i/actions", "a", BODY);
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<Api.Reply> first = CompletableFuture.supplyAsync(() -> {
            try {
                return keys.once(a, () -> {
                    runs.incrementAndGet();
                    running.countDown();
                    finish.await(30, TimeUnit.SECONDS);
                    return new Api.Reply(200, "{\"to\": \"running\"}".getBytes(StandardCharsets.UTF_8));
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        running.await(30, TimeUnit.SECONDS);

        // When other keys are answered meanwhile, past the bound
        for (int i = 0; i < 3; i++) {
            keys.once(Idempotency.key("POST /v1/fsm/instances/i/actions", "other-" + i, BODY),
                    () -> new Api.Reply(200, new byte[] {'{', '}'}));
        }

        // Then a duplicate of "a" still finds it running (409), instead of running it again
        ApiError.Raised duplicate = assertThrows(ApiError.Raised.class, () -> keys.once(a, () -> {
            runs.incrementAndGet();
            return new Api.Reply(200, new byte[] {'{', '}'});
        }));
        assertEquals("idempotency_key_in_progress", ApiError.from(duplicate).code());
        finish.countDown();
        assertEquals(200, first.get(30, TimeUnit.SECONDS).status());
        // ... and once answered, the duplicate gets its answer, and the work ran once
        assertEquals("{\"to\": \"running\"}", new String(keys.once(a, () -> {
            runs.incrementAndGet();
            return null;
        }).body(), StandardCharsets.UTF_8));
        assertEquals(1, runs.get());
    }
}
