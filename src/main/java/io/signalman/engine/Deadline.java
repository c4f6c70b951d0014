package io.signalman.engine;

import java.util.concurrent.Callable;

/**
 * The deadline of the request a worker thread is serving, so that the engine can stop an
 * evaluation nobody is waiting for any more without every caller passing it down.
 *
 * <p>NOTE: a thread-local rather than a parameter because evaluations are reached through every
 * pack's one {@code decide} (SPEC: one typed entry point), FSM and handoff services included;
 * threading a deadline through all of them would change every signature for one cross-cutting
 * concern. A thread without a deadline (replay, the CLI, benchmarks) runs unbounded.
 */
public final class Deadline {

    private static final ThreadLocal<Long> AT = new ThreadLocal<>();

    private Deadline() {
    }

    /** Runs {@code work} on this thread with a deadline ({@link System#nanoTime()} based). */
    public static <T> T within(long deadlineNanos, Callable<T> work) throws Exception {
        Long outer = AT.get();
        AT.set(deadlineNanos);
        try {
            check();
            return work.call();
        } finally {
            if (outer == null) {
                AT.remove();
            } else {
                AT.set(outer);
            }
        }
    }

    /** The current thread's deadline in nanoTime, or null when it has none. */
    static Long current() {
        return AT.get();
    }

    /**
     * Throws when the current thread's deadline has passed. Called before and after every
     * evaluation, so a late evaluation is never committed: a stateful pack's compare-and-set
     * comes after it, and the client has already been told 503.
     */
    public static void check() {
        Long at = AT.get();
        if (at != null && System.nanoTime() - at > 0) {
            throw new DeadlineExceededException();
        }
    }
}
