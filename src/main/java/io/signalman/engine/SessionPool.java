package io.signalman.engine;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Sessions of one compiled pack, borrowed by one thread at a time.
 *
 * <p>The pool grows to the number of threads that evaluate at once (the worker pool) and no
 * further. A session is retired after {@link #MAX_USES} evaluations, which bounds the per-cycle
 * leak of long-lived Drools sessions; a session that threw, or that ended past its request's
 * deadline, is never reused.
 */
final class SessionPool {

    static final int MAX_USES = 10_000;

    private final ConcurrentLinkedQueue<PackSession> idle = new ConcurrentLinkedQueue<>();
    private final Supplier<PackSession> factory;

    SessionPool(Supplier<PackSession> factory) {
        this.factory = factory;
    }

    PackSession borrow() {
        PackSession s = idle.poll();
        return s != null ? s : factory.get();
    }

    void giveBack(PackSession s) {
        if (s.uses() >= MAX_USES) {
            s.dispose();
        } else {
            idle.offer(s);
        }
    }

    /** Sessions waiting to be borrowed (a walk of the queue: for tests, not for the decision path). */
    int idle() {
        return idle.size();
    }

    void discard(PackSession s) {
        try {
            s.dispose();
        } catch (RuntimeException ignored) {
            // A session that failed may fail again on dispose; it is dropped either way.
        }
    }
}
