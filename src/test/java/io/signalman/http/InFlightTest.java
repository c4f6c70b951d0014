package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * admission follows measured latency, on a clock the test moves. While answers take
 * as long as they always did the limit stays up; when they start taking longer (requests queueing
 * for a worker) it comes down toward the worker count, and past it requests are refused.
 */
class InFlightTest {

    private static final int WORKERS = 4;
    private static final int MAX = 256;

    private final AtomicLong now = new AtomicLong();

    /** Admits {@code n} requests at once and answers them all after {@code ms}; the slots refused. */
    private int wave(InFlight admission, int n, long ms) {
        List<InFlight.Slot> slots = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < n; i++) {
            InFlight.Slot s = admission.tryAcquire();
            if (s == null) {
                refused++;
            } else {
                slots.add(s);
            }
        }
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
        slots.forEach(InFlight.Slot::done);
        return refused;
    }

    /**
     * A server of {@link #WORKERS} workers taking 2 ms a request, offered {@code offered} at once:
     * the admitted ones past the workers wait their turn, so an answer takes 2 ms per round of
     * workers ahead of it. Returns the admitted count.
     */
    private int overloaded(InFlight admission, int offered) {
        List<InFlight.Slot> slots = new ArrayList<>();
        for (int i = 0; i < offered; i++) {
            InFlight.Slot s = admission.tryAcquire();
            if (s != null) {
                slots.add(s);
            }
        }
        for (int i = 0; i < slots.size(); i++) {
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(i % WORKERS == 0 ? 2 : 0));
            slots.get(i).done();
        }
        return slots.size();
    }

    @Test
    void underOverloadTheLimitStaysNearTheWorkersSoAdmittedRequestsDoNotQueueBehindHundreds() {
        InFlight admission = new InFlight(MAX, WORKERS, now::get);
        // Given far more requests offered at once than the workers can take (the fixed bound admitted 256)
        int admitted = 0;
        for (int i = 0; i < 2_000; i++) {
            admitted = overloaded(admission, MAX);
        }
        // Then the limit, measured from their latency, keeps only a short queue, never below the workers
        int limit = admission.limit();
        assertTrue(limit >= WORKERS, "limit " + limit);
        assertTrue(limit <= 8 * WORKERS, "limit " + limit + " lets requests queue behind " + (limit - WORKERS));
        assertTrue(admitted <= limit + 1, "admitted " + admitted);
        // ... and past it requests are refused at once
        List<InFlight.Slot> held = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            InFlight.Slot s = admission.tryAcquire();
            assertNotNull(s, "admitted " + i + " of " + limit);
            held.add(s);
        }
        assertNull(admission.tryAcquire(), "one past the limit is refused");
        assertEquals(limit, admission.current());
        held.forEach(InFlight.Slot::ignored);
        assertEquals(0, admission.current());
    }

    @Test
    void aSlotIsReleasedByItsFirstReleaseOnly() {
        // Given two admitted requests
        InFlight admission = new InFlight(MAX, WORKERS, now::get);
        InFlight.Slot first = admission.tryAcquire();
        admission.tryAcquire();
        assertEquals(2, admission.current());

        // When one is released twice (its thread abandoned, then its late work ending)
        first.dropped();
        first.done();

        // Then it counts once: the other is still in flight
        assertEquals(1, admission.current());
    }

    @Test
    void theLimitNeverPassesMaxInFlight() {
        InFlight admission = new InFlight(8, WORKERS, now::get);
        for (int i = 0; i < 500; i++) {
            wave(admission, 8, 1);
        }
        assertTrue(admission.limit() <= 8, "limit " + admission.limit());
        assertEquals(1, wave(admission, 9, 1));
    }
}
