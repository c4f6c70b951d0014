package io.signalman.engine;

import io.signalman.cost.Budgets;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.kie.api.runtime.KieSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that watches every evaluation while its rules fire: it halts a session whose
 * evaluation outlives its deadline, and it stops the thread of an evaluation that goes over its
 * budget ({@link Budgets#decisionBytes()} allocated, {@link Budgets#decisionCpuMs()} of CPU).
 *
 * <p>Why a stop and not a halt: {@code KieSession.halt()} is seen between firings only, and a join
 * of facts runs inside one (a cross product of 26 cards to the 6th power allocated until the JVM
 * died). {@code Thread.stop} delivers a {@code ThreadDeath} wherever the thread is, the join
 * included. Its danger, state left half-changed, is contained: the thread is stopped only while
 * it fires one session that is then discarded, and the watch's state decides who was first, so
 * a stop never lands after the evaluation has ended ({@link #fire}). On a JDK where
 * {@code Thread.stop} is gone (20 and later) the watchdog halts the session instead, and the
 * cost model at check is the line that holds.
 *
 * <p>NOTE(perf): one watch per thread, made at its first evaluation and reused, so an evaluation
 * costs two writes and a compare-and-set, not a set insert; the thread looks at the watches every
 * {@link #TICK_MS} ms. It reads a thread's allocated bytes and CPU time only for an evaluation
 * still firing at a tick, and takes the first reading as its baseline: an evaluation shorter
 * than a tick (every ordinary one) is never read at all, and a runaway's first tick of work is
 * not counted, which overshoots the budget by at most what one tick allocates.
 */
final class Watchdog {

    /** How often running evaluations are checked; a halt or a stop is at most this late. */
    static final long TICK_MS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);
    private static final int IDLE = 0;
    private static final int FIRING = 1;
    private static final int HALTED = 2;
    private static final int STOPPING = 3;
    private static final Set<Watch> WATCHES = ConcurrentHashMap.newKeySet();
    private static final ThreadLocal<Watch> MINE = ThreadLocal.withInitial(() -> {
        Watch w = new Watch(Thread.currentThread());
        WATCHES.add(w);
        return w;
    });
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static {
        Thread t = new Thread(Watchdog::run, "signalman-deadline-watchdog");
        t.setDaemon(true);
        t.start();
    }

    private Watchdog() {
    }

    /**
     * A thread's watch: the evaluation it is firing, if any, and what the watchdog saw of it. Its
     * value is the evaluation's number times four plus its phase, so that the watchdog's
     * compare-and-set can only ever halt or stop the evaluation it looked at, never the next one.
     */
    static final class Watch extends AtomicLong {
        private final Thread thread;
        // Plain fields: written before the volatile set(FIRING) that publishes them, read by the watchdog
        // after the volatile get() that saw FIRING; a compare-and-set on that value guards every use.
        private KieSession session;
        private long deadlineNanos;
        private boolean hasDeadline;
        private long evaluations; // the evaluating thread's own count
        private volatile String overBy;
        /** Set once {@code Thread.stop} has returned: its ThreadDeath is pending on the thread from then on. */
        private volatile boolean stopSent;
        // Read and written by the watchdog's thread only: the evaluation (its number times four) its baseline belongs to.
        private long seenGeneration = -1;
        private long baseBytes;
        private long baseCpuNanos;

        private Watch(Thread thread) {
            super(IDLE);
            this.thread = thread;
        }
    }

    /**
     * Runs {@code work} on this thread under the watch, with no session to halt: past its deadline
     * it is stopped once it runs on past {@link Deadline#STUCK_AFTER_MS}. Explain's checks of a
     * rule's conditions run so.
     */
    static <T> T watched(java.util.function.Supplier<T> work) {
        return watched(null, work);
    }

    /**
     * Runs {@code work} (an evaluation of {@code session}: its inserts, firing and deletes) on this
     * thread under the watch: halted at the thread's deadline, if any, and stopped over the process's
     * budgets, or when it runs on past the deadline inside one condition. A call inside another's
     * watch runs under that one.
     *
     * @throws DeadlineExceededException       when the deadline passed and the watchdog halted it
     * @throws EvaluationTooCostlyException    when the watchdog stopped it
     */
    static <T> T watched(KieSession session, java.util.function.Supplier<T> work) {
        Watch w = MINE.get();
        if (w.get() % 4 != IDLE) {
            return work.get(); // already watched on this thread: the outer watch covers it
        }
        Long deadline = Deadline.current();
        w.session = session;
        w.hasDeadline = deadline != null;
        w.overBy = null;
        w.stopSent = false;
        w.deadlineNanos = deadline == null ? 0 : deadline;
        long base = ++w.evaluations * 4;
        w.set(base + FIRING);
        try {
            T n;
            try {
                n = work.get();
            } catch (RuntimeException e) {
                if (w.compareAndSet(base + FIRING, base + IDLE)) {
                    throw e;
                }
                throw settle(w, base); // Drools wrapped the ThreadDeath, or failed as the stop came: ours either way
            }
            if (w.compareAndSet(base + FIRING, base + IDLE)) {
                return n;
            }
            throw settle(w, base); // the watchdog got there just as the rules ended
        } catch (ThreadDeath d) {
            if (w.get() != base + STOPPING) {
                throw d; // not the watchdog's
            }
            w.set(base + IDLE);
            Thread.interrupted(); // Thread.stop interrupts before it throws: the flag would break the thread's next I/O
            throw new EvaluationTooCostlyException(w.overBy);
        } finally {
            w.session = null;
        }
    }

    /**
     * The watchdog halted or is stopping this evaluation: what to throw, once its stop has landed.
     * Leaving HALTED is a compare-and-set too, since the watchdog may still turn a halted evaluation
     * that runs on into a stop ({@link #look}); a stop decided is always waited for here.
     */
    private static RuntimeException settle(Watch w, long base) {
        while (true) {
            if (w.compareAndSet(base + HALTED, base + IDLE)) {
                // overBy is set on a halted evaluation only where the JDK could not stop it over budget
                return w.overBy == null ? new DeadlineExceededException() : new EvaluationTooCostlyException(w.overBy);
            }
            if (w.get() == base + STOPPING) {
                awaitStop(w, base); // the ThreadDeath lands in there, or the JDK's fallback halts instead
                if (w.compareAndSet(base + STOPPING, base + IDLE)) {
                    // The rules' own code caught the ThreadDeath and went on (a platform method that cannot
                    // be stopped); they have ended now, and their result is thrown away all the same.
                    Thread.interrupted();
                    return new EvaluationTooCostlyException(w.overBy);
                }
            }
        }
    }

    /**
     * Waits for the {@code ThreadDeath} the watchdog sends after it has decided to stop this
     * thread, so that it lands here and not after the evaluation has returned. It comes within
     * moments: the watchdog sends it right after deciding.
     */
    private static void awaitStop(Watch w, long base) {
        while (w.get() == base + STOPPING) {
            boolean sent = w.stopSent;
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                // Thread.stop interrupts a sleeping thread first; the ThreadDeath follows.
            }
            if (sent) {
                // Sent before that sleep and not thrown on the way out of it: it was thrown earlier, and
                // caught by the rules' own code. Waiting longer would wait for ever.
                return;
            }
        }
    }

    private static void run() {
        while (true) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MS));
            long now = System.nanoTime();
            Budgets budgets = Budgets.current();
            for (Watch w : WATCHES) {
                if (!w.thread.isAlive()) {
                    WATCHES.remove(w);
                } else {
                    long state = w.get();
                    if (state % 4 == FIRING || state % 4 == HALTED) {
                        look(w, state, now, budgets);
                    }
                }
            }
        }
    }

    /**
     * One look at an evaluation still firing, or halted at its deadline and not yet back: halted at
     * its deadline (between firings); stopped over its budget, or when, halted, it runs on
     * {@link Deadline#STUCK_AFTER_MS} past its deadline (inside one condition or join, where a halt
     * is never seen; CPU time cannot outrun the deadline's wall time, so without this a request's
     * evaluation would never be stopped).
     */
    private static void look(Watch w, long state, long now, Budgets budgets) {
        long base = state - state % 4;
        boolean halted = state % 4 == HALTED;
        if (!halted && w.hasDeadline && now - w.deadlineNanos >= 0) {
            KieSession s = w.session;
            if (w.compareAndSet(state, base + HALTED) && s != null) {
                try {
                    s.halt();
                } catch (RuntimeException e) {
                    // The session may be in any state; the evaluation throws and discards it either way.
                }
            }
            return;
        }
        long id = w.thread.getId();
        long bytes = THREADS.getThreadAllocatedBytes(id);
        long cpu = THREADS.getThreadCpuTime(id);
        if (base != w.seenGeneration) {
            w.seenGeneration = base;
            w.baseBytes = bytes;
            w.baseCpuNanos = cpu;
            return;
        }
        String over = null;
        if (halted && now - w.deadlineNanos > TimeUnit.MILLISECONDS.toNanos(Deadline.STUCK_AFTER_MS)
                && w.thread.getState() == Thread.State.RUNNABLE) {
            // Only a thread still computing: one parked in a wait costs no CPU, and is the workers' to
            // abandon and replace (http.Workers), as before.
            over = "its rules ran on more than " + Deadline.STUCK_AFTER_MS + " ms past the request's deadline (--deadline-ms), "
                    + "inside one condition, where a halt is never seen";
        } else if (bytes >= 0 && bytes - w.baseBytes > budgets.decisionBytes()) {
            over = "its rules allocated more than " + budgets.decisionBytes() / (1024 * 1024) + " MB for one decision "
                    + "(--max-decision-mb)";
        } else if (cpu >= 0 && cpu - w.baseCpuNanos > TimeUnit.MILLISECONDS.toNanos(budgets.decisionCpuMs())) {
            over = "its rules took more than " + budgets.decisionCpuMs() + " ms of CPU for one decision (--max-decision-cpu-ms)";
        }
        if (over != null && !initializing(w.thread) && w.compareAndSet(state, base + STOPPING)) {
            w.overBy = over; // before the stop, which is what the evaluating thread waits for before reading it
            stop(w, base);
        }
    }

    /**
     * Whether the thread is initializing or loading a class: a {@code ThreadDeath} there would
     * leave the class unusable for the life of the JVM (a Drools factory stopped in its static
     * initializer failed every session after it), so the stop waits for the next tick. A
     * runaway join or match is never inside one; a cold first evaluation can be.
     */
    static boolean initializing(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            String m = e.getMethodName();
            String c = e.getClassName();
            if (m.equals("<clinit>") || c.equals("java.util.ServiceLoader") || c.startsWith("java.util.ServiceLoader$")
                    || c.equals("java.lang.ClassLoader") || c.startsWith("jdk.internal.loader.")) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static void stop(Watch w, long base) {
        try {
            w.thread.stop();
            w.stopSent = true;
        } catch (UnsupportedOperationException e) {
            // JDK 20 and later: no stop. Halting acts between firings only; the cost model at check is the line that holds.
            LOG.warn("this JDK cannot stop a thread over its budget ({}); halting its session instead", w.overBy);
            KieSession s = w.session;
            if (s != null) {
                s.halt();
            }
            w.compareAndSet(base + STOPPING, base + HALTED);
        }
    }
}
