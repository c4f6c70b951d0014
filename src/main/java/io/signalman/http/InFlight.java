package io.signalman.http;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The server's admitted requests, HTTP and event bus together (in-flight work is bounded),
 * admitted by measured latency. A fixed bound of 256 requests for 4 workers let an
 * accepted request wait behind 252 others (p99 about 250 ms at 1,000 connections); instead the
 * limit follows Netflix's Gradient2 algorithm: it grows while the time from admission to answer
 * stays near its long-run average and shrinks when that time grows (requests queueing for a
 * worker), between the worker count and {@code --max-in-flight}. Past the limit, 503
 * {@code overloaded} at once.
 *
 * <p>Admission is decided on the event loop with a few atomic operations, so a refusal costs no
 * worker, no body parse and no queue slot: under overload the rejects stay fast and the heap
 * stays flat.
 */
final class InFlight {

    /**
     * An admitted request's slot, released by the first of its calls (the work's end, or its
     * thread's abandonment; see {@link Guard}); later calls do nothing.
     */
    interface Slot {
        /** Answered by the work: its time from admission counts toward the limit. */
        void done();

        /** Answered by the deadline (the work ran too long, or waited too long for a worker): a sign of overload. */
        void dropped();

        /** Ended otherwise (a fault): its time says nothing about load. */
        void ignored();
    }

    private final int max;
    private final SimpleLimiter<Void> limiter;

    /** Between {@code min(workers, max)} and {@code max} admitted at once; starts at {@code max}, so a burst on a fresh server is admitted. */
    InFlight(int max, int workers) {
        this(max, workers, System::nanoTime);
    }

    /** With {@code clock} measuring the time from admission to answer (tests give their own). */
    InFlight(int max, int workers, java.util.function.LongSupplier clock) {
        this.max = max;
        int min = Math.max(1, Math.min(workers, max));
        this.limiter = SimpleLimiter.newBuilder().named("signalman").nanoClock(clock)
                .limit(Gradient2Limit.newBuilder().minLimit(min).initialLimit(max)
                        .maxConcurrency(max).queueSize(min).build())
                .build();
    }

    /** The slot of work not admitted here (an admin request): there is nothing to release. */
    static final Slot UNCOUNTED = new Slot() {
        @Override
        public void done() {
        }

        @Override
        public void dropped() {
        }

        @Override
        public void ignored() {
        }
    };

    /** The request's slot, or null when it is refused. */
    Slot tryAcquire() {
        Limiter.Listener l = limiter.acquire(null).orElse(null);
        if (l == null) {
            return null;
        }
        AtomicBoolean released = new AtomicBoolean();
        return new Slot() {
            @Override
            public void done() {
                if (released.compareAndSet(false, true)) {
                    l.onSuccess();
                }
            }

            @Override
            public void dropped() {
                if (released.compareAndSet(false, true)) {
                    l.onDropped();
                }
            }

            @Override
            public void ignored() {
                if (released.compareAndSet(false, true)) {
                    l.onIgnore();
                }
            }
        };
    }

    int current() {
        return limiter.getInflight();
    }

    /** The admission limit now (it moves with the measured latency). */
    int limit() {
        return limiter.getLimit();
    }

    int max() {
        return max;
    }
}
