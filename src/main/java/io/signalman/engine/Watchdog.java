package io.signalman.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.kie.api.runtime.KieSession;

/**
 * One daemon thread that halts sessions whose evaluation outlives its deadline. Drools only
 * bounds a loop by the number of firings ({@link PackSession#MAX_FIRINGS}); a rule whose firings
 * are each slow stays under that bound for minutes, and only a halt from another thread stops it.
 *
 * <p>NOTE(perf): the thread looks at the evaluations in flight every {@link #TICK_MS} ms instead
 * of scheduling one timer per evaluation. A timer per evaluation cost about 3 µs of a broker
 * request (schedule, cancel and the timer thread woken for each), measured with async-profiler
 * under {@code HttpLoad}; watching costs a set insert and remove, and a halt comes at most one
 * tick after its deadline.
 */
final class Watchdog {

    /** How often running evaluations are checked; a halt is at most this late. */
    static final long TICK_MS = 5;

    private static final int FIRING = 0;
    private static final int DONE = 1;
    private static final int HALTED = 2;
    private static final Set<Watch> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Thread t = new Thread(Watchdog::run, "signalman-deadline-watchdog");
        t.setDaemon(true);
        t.start();
    }

    private Watchdog() {
    }

    /**
     * One evaluation being watched. The state decides who was first: the watchdog halts only a
     * session still firing, and the evaluation learns from {@link #finish} whether it was halted.
     */
    static final class Watch extends AtomicInteger {
        private final long deadlineNanos;
        private final KieSession session;

        private Watch(long deadlineNanos, KieSession session) {
            super(FIRING);
            this.deadlineNanos = deadlineNanos;
            this.session = session;
        }

        /** Ends the watch; false when the watchdog halted the session first. */
        boolean finish() {
            RUNNING.remove(this);
            return compareAndSet(FIRING, DONE);
        }
    }

    /** Starts watching an evaluation of {@code session} that must end by {@code deadlineNanos}. */
    static Watch watch(long deadlineNanos, KieSession session) {
        Watch w = new Watch(deadlineNanos, session);
        RUNNING.add(w);
        return w;
    }

    private static void run() {
        while (true) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MS));
            long now = System.nanoTime();
            for (Watch w : RUNNING) {
                if (now - w.deadlineNanos >= 0 && w.compareAndSet(FIRING, HALTED)) {
                    RUNNING.remove(w);
                    try {
                        w.session.halt();
                    } catch (RuntimeException e) {
                        // The session may be in any state; the evaluation throws and discards it either way.
                    }
                }
            }
        }
    }
}
