package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What an evaluation does with its session: an evaluation that ends past its
 * request's deadline drops its session instead of giving it back, since its thread may have been
 * given up on and replaced meanwhile. The evaluation is made late by the read of its outcome,
 * which waits until the deadline has passed: no slow rule and nothing timed.
 */
class CompiledPackTest {

    private static final List<?> FACTS = List.of(new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"),
            "event", "trade.executed", null).fact());

    @Test
    void anEvaluationOnTimeGivesItsSessionBackAndALateOneDropsIt() throws Exception {
        // Given a pack of its own with one idle session
        CompiledPack pack = TestBundles.shipped().requirePack("broker").apart();
        pack.evaluate(FACTS, false, c -> c);
        assertEquals(1, pack.idleSessions());

        // When an evaluation ends before its deadline, its session is back in the pool
        Deadline.within(System.nanoTime() + TimeUnit.MINUTES.toNanos(1), () -> pack.evaluate(FACTS, false, c -> c));
        assertEquals(1, pack.idleSessions(), "the on-time evaluation gave its session back");

        // When an evaluation ends after its deadline (a second away: far more than it takes to start)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        assertThrows(DeadlineExceededException.class, () -> Deadline.within(deadline, () -> pack.evaluate(FACTS, false, c -> {
            Await.until(Duration.ofSeconds(10), "the deadline to pass", () -> System.nanoTime() - deadline > 0);
            return c;
        })));

        // Then its session is dropped, not given back, and the next evaluation makes a new one
        assertEquals(0, pack.idleSessions(), "the late evaluation's session was dropped");
        pack.evaluate(FACTS, false, c -> c);
        assertEquals(1, pack.idleSessions());
    }
}
