package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The threads that give up on work held past its deadline. Every task here is given
 * a deadline already past and the pools a stuck margin of zero, so a held task is stuck at once:
 * the tests wait on conditions, never on time. Held tasks wait on a latch the test opens (at most
 * 60 s, so nothing hangs forever).
 */
class WorkersTest {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Runnable NOTHING = () -> { };

    @Test
    void aThreadHeldPastItsDeadlineIsAbandonedAndAnotherTakesItsPlace() throws Exception {
        try (Workers pool = new Workers("test", 1, 1, 0)) {
            // Given the pool's only thread held by a task past its deadline
            CountDownLatch gate = new CountDownLatch(1);
            AtomicInteger abandonedCalls = new AtomicInteger();
            pool.execute(past(), () -> await(gate), abandonedCalls::incrementAndGet);

            // Then it is given up on, once, and reported
            Await.until(PATIENCE, "the held thread to be abandoned", () -> abandonedCalls.get() == 1);
            assertEquals(1, pool.abandoned());
            assertEquals(1, pool.stuck(), "an abandoned thread still running counts as stuck");
            assertEquals(0, pool.lost(), "its place was taken: no capacity is lost");
            assertFalse(pool.stalled());

            // When another task comes, a new thread runs it while the first is still held
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(System.nanoTime() + TimeUnit.MINUTES.toNanos(1), ran::countDown, NOTHING);
            assertTrue(ran.await(PATIENCE.toSeconds(), TimeUnit.SECONDS), "a replacement thread ran the next task");
            assertEquals(1, gate.getCount(), "the first task is still held");

            // And once the held task ends, its thread ends too
            gate.countDown();
            Await.until(PATIENCE, "the abandoned thread to end", () -> pool.abandoned() == 0 && pool.stuck() == 0);
            assertEquals(1, abandonedCalls.get(), "abandoned once");
        }
    }

    @Test
    void pastTheBoundAStuckThreadKeepsItsPlaceAndThePoolStallsUntilItsTaskEnds() throws Exception {
        try (Workers pool = new Workers("test", 1, 1, 0)) {
            // Given the bound reached: one thread abandoned, and its replacement held too
            CountDownLatch gate = new CountDownLatch(1);
            pool.execute(past(), () -> await(gate), NOTHING);
            Await.until(PATIENCE, "the first thread to be abandoned", () -> pool.abandoned() == 1);
            pool.execute(past(), () -> await(gate), NOTHING);

            // Then the held replacement is stuck, kept, and the pool says it is stalled
            Await.until(PATIENCE, "the replacement to be stuck", () -> pool.stuck() == 2);
            assertEquals(1, pool.lost());
            assertTrue(pool.stalled());
            assertEquals(1, pool.abandoned(), "no more than the bound");
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(past(), ran::countDown, NOTHING);

            // When the held tasks end, what waited runs, and nothing is stuck
            gate.countDown();
            assertTrue(ran.await(PATIENCE.toSeconds(), TimeUnit.SECONDS), "the queued task ran");
            Await.until(PATIENCE, "every stuck thread to end", () -> pool.stuck() == 0 && pool.abandoned() == 0);
            assertFalse(pool.stalled());
        }
    }

    @Test
    void closingRunsWhatIsQueuedAndRefusesMore() throws Exception {
        Workers pool = new Workers("test", 1, 1, 0);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(System.nanoTime() + TimeUnit.MINUTES.toNanos(1), () -> await(gate), NOTHING);
        pool.execute(System.nanoTime() + TimeUnit.MINUTES.toNanos(1), ran::countDown, NOTHING);

        pool.close();

        assertThrows(RejectedExecutionException.class, () -> pool.execute(past(), NOTHING, NOTHING));
        gate.countDown();
        assertTrue(ran.await(PATIENCE.toSeconds(), TimeUnit.SECONDS), "work queued before the close still ran");
    }

    private static long past() {
        return System.nanoTime() - 1;
    }

    private static void await(CountDownLatch gate) {
        try {
            gate.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
