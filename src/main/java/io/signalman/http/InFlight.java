package io.signalman.http;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's admitted requests, HTTP and event bus together (SPEC 8: bounded in-flight work).
 * Admission is decided on the event loop with one atomic increment, so a refusal costs no worker,
 * no body parse and no queue slot: under overload the rejects stay fast and the heap stays flat.
 */
final class InFlight {

    private final int max;
    private final AtomicInteger admitted = new AtomicInteger();

    InFlight(int max) {
        this.max = max;
    }

    /** True when the request is admitted; it must then call {@link #release()} exactly once. */
    boolean tryAcquire() {
        if (admitted.incrementAndGet() > max) {
            admitted.decrementAndGet();
            return false;
        }
        return true;
    }

    void release() {
        admitted.decrementAndGet();
    }

    int current() {
        return admitted.get();
    }

    int max() {
        return max;
    }
}
