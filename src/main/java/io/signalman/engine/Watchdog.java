package io.signalman.engine;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread that halts sessions whose evaluation outlives its deadline. Drools only
 * bounds a loop by the number of firings ({@link PackSession#MAX_FIRINGS}); a rule whose firings
 * are each slow stays under that bound for minutes, and only a halt from another thread stops it.
 *
 * <p>NOTE(perf): one schedule and one cancel per evaluation with a deadline; cancelled tasks are
 * removed at once so the queue holds only evaluations that are running.
 */
final class Watchdog {

    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private Watchdog() {
    }

    static ScheduledFuture<?> at(long deadlineNanos, Runnable action) {
        return TIMER.schedule(action, Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "signalman-deadline-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        t.setRemoveOnCancelPolicy(true);
        return t;
    }
}
