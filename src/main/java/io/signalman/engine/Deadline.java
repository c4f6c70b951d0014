package io.signalman.engine;

import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

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

    /** How long past its deadline a thread must still be working to count as stuck. */
    public static final long STUCK_AFTER_MS = 1000;

    private static final ThreadLocal<Long> AT = new ThreadLocal<>();
    /** The deadline of every thread inside {@link #within}, one array per call (identity matters). */
    private static final Set<long[]> WORKING = ConcurrentHashMap.newKeySet();

    private Deadline() {
    }

    /** Runs {@code work} on this thread with a deadline ({@link System#nanoTime()} based). */
    public static <T> T within(long deadlineNanos, Callable<T> work) throws Exception {
        Long outer = AT.get();
        AT.set(deadlineNanos);
        long[] working = {deadlineNanos};
        WORKING.add(working);
        try {
            check();
            return work.call();
        } finally {
            WORKING.remove(working);
            if (outer == null) {
                AT.remove();
            } else {
                AT.set(outer);
            }
        }
    }

    /**
     * Threads still working for a request {@link #STUCK_AFTER_MS} past its deadline: held by a
     * rule that does not stop (the watchdog's halt acts between firings, not inside a condition
     * or a consequence; the rule language refuses loops and blocking calls, and this is the
     * backstop). {@code /ready} turns 503 while any is, so an orchestrator restarts the server.
     */
    public static int stuckWorkers() {
        long now = System.nanoTime();
        long after = TimeUnit.MILLISECONDS.toNanos(STUCK_AFTER_MS);
        int n = 0;
        for (long[] at : WORKING) {
            n += now - at[0] > after ? 1 : 0;
        }
        return n;
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
