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

    /**
     * How long past its deadline a thread must still be working to count as stuck: held by a rule
     * that does not stop (the watchdog's halt acts between firings, not inside a condition or a
     * consequence). A halted evaluation unwinds in far less; the server then gives the thread up
     * and starts another in its place (see {@code http.Workers}).
     */
    public static final long STUCK_AFTER_MS = 1000;

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

    /**
     * Runs {@code work} with a deadline {@code budgetNanos} from now, or the thread's own deadline
     * when that comes first: a part of a request (a live trial's candidate) that must end early
     * enough for the request still to be answered without it.
     */
    public static <T> T withinAtMost(long budgetNanos, Callable<T> work) throws Exception {
        long mine = System.nanoTime() + budgetNanos;
        Long outer = AT.get();
        return within(outer != null && outer - mine < 0 ? outer : mine, work);
    }

    /** Nanoseconds left before the current thread's deadline, or null when it has none. */
    public static Long remainingNanos() {
        Long at = AT.get();
        return at == null ? null : at - System.nanoTime();
    }

    /** The current thread's deadline in nanoTime, or null when it has none. */
    static Long current() {
        return AT.get();
    }

    /**
     * Throws when the current thread's deadline has passed. Checked before and after every
     * evaluation (after it with {@link #passed}), so a late evaluation is never committed: a stateful pack's compare-and-set
     * comes after it, and the client has already been told 503.
     */
    public static void check() {
        if (passed()) {
            throw new DeadlineExceededException();
        }
    }

    /** True when the current thread has a deadline and it has passed. */
    static boolean passed() {
        Long at = AT.get();
        return at != null && System.nanoTime() - at > 0;
    }
}
