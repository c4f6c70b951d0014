package io.signalman.http;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Threads that run work with a deadline, and that give up on a thread a rule holds long past its
 * deadline instead of losing it for good (a runaway rule produces 503, not a hang).
 *
 * <p>NOTE: not Vert.x's worker pool. Its threads are fixed, so a rule that does not return (a
 * backtracking regular expression, a slow platform method) holds one until it ends, and a
 * handful of them held every thread for minutes: every later request, and everything else on
 * that pool ({@code /metrics} and {@code /v1/rules} were), waited behind them. The watchdog's
 * {@code halt()} acts only between firings, and Java has no safe way to stop a thread, so a
 * thread held {@link #stuckAfterNanos} past its deadline is <em>abandoned</em>: it finishes its
 * work on its own and then ends (its late result is thrown away by the deadline checks), and a
 * new thread takes its place. Abandoned threads are bounded ({@link #maxAbandoned()}), so a flood
 * of hostile messages costs at most that many extra threads; past the bound a stuck thread keeps
 * its place and capacity shrinks until it ends, which {@code /ready} and {@code /health} report.
 *
 * <p>The queue is unbounded on purpose: admission ({@link InFlight}) bounds what waits in it.
 *
 * <p>NOTE(size): over the ~200-line guide: the threads, their tasks and the supervisor share the
 * state that decides who was first (a task finishing or its thread being given up on); split
 * into files, that state would have to be opened up to them all.
 */
public final class Workers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Workers.class);
    /** How often running work is looked at; a stuck thread is replaced at most this late. */
    static final long CHECK_MS = 50;
    /** Taken by a thread when the pool closes; each passes it on, so one stops them all. */
    private static final Job STOP = new Job(0, () -> { }, () -> { });

    private final String name;
    private final int size;
    private final int maxAbandoned;
    private final long stuckAfterNanos;
    private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    /** Every thread, in its place or abandoned; a thread leaves when it ends. */
    private final Set<Worker> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger abandoned = new AtomicInteger();
    private final AtomicInteger started = new AtomicInteger();
    private final Thread supervisor;
    private volatile boolean closed;

    /**
     * Starts {@code size} threads now, on the calling thread: a pool that started them on first
     * use would start them on an event loop (one {@code Thread.start} there was measured at 137 ms).
     *
     * @param maxAbandoned   the most abandoned threads alive at once
     * @param stuckAfterMs   how long past its deadline work must still run for its thread to be stuck
     */
    Workers(String name, int size, int maxAbandoned, long stuckAfterMs) {
        if (size < 1 || maxAbandoned < 0 || stuckAfterMs < 0) {
            throw new IllegalArgumentException("a pool needs a thread, and bounds that are not negative");
        }
        this.name = name;
        this.size = size;
        this.maxAbandoned = maxAbandoned;
        this.stuckAfterNanos = TimeUnit.MILLISECONDS.toNanos(stuckAfterMs);
        for (int i = 0; i < size; i++) {
            startThread();
        }
        supervisor = new Thread(this::supervise, name + "-supervisor");
        supervisor.setDaemon(true);
        supervisor.start();
    }

    /**
     * Runs {@code task} on a thread of the pool; it should end by {@code deadlineNanos}
     * ({@link System#nanoTime()}). {@code onAbandoned} runs (on the supervisor's thread) if the
     * task's thread is given up on while it still runs; the task itself still runs to its end.
     *
     * @throws RejectedExecutionException once the pool is closed
     */
    void execute(long deadlineNanos, Runnable task, Runnable onAbandoned) {
        if (closed) {
            throw new RejectedExecutionException(name + " is closed");
        }
        queue.add(new Job(deadlineNanos, task, onAbandoned));
    }

    /** Threads whose work runs past its deadline by the stuck margin, abandoned ones included. */
    public int stuck() {
        return count(false);
    }

    /** Stuck threads still in their place (not abandoned): capacity lost until their work ends. */
    int stuckInPlace() {
        return count(true);
    }

    /** Abandoned threads still running their work. */
    public int abandoned() {
        return abandoned.get();
    }

    public int maxAbandoned() {
        return maxAbandoned;
    }

    /** Threads in their place: what the pool runs at once when nothing is stuck. */
    int size() {
        return size;
    }

    /**
     * Stuck threads in their place that cannot be replaced, as the bound of abandoned threads is
     * reached: capacity lost until their work ends. (Below the bound, a stuck thread is replaced
     * within {@link #CHECK_MS}.)
     */
    int lost() {
        return abandoned.get() >= maxAbandoned ? stuckInPlace() : 0;
    }

    /** Every thread in its place is stuck and none can be replaced: nothing runs until a rule lets go. */
    boolean stalled() {
        return lost() >= size;
    }

    private int count(boolean inPlaceOnly) {
        long now = System.nanoTime();
        int n = 0;
        for (Worker w : threads) {
            Job j = w.job;
            if (j != null && now - j.deadlineNanos > stuckAfterNanos && !(inPlaceOnly && j.get() == Job.ABANDONED)) {
                n++;
            }
        }
        return n;
    }

    private void supervise() {
        while (!closed) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CHECK_MS));
            try {
                replaceStuck();
            } catch (RuntimeException e) {
                // The supervisor must outlive any one failure, or no stuck thread is replaced again.
                LOG.error("{}: replacing stuck threads failed", name, e);
            }
        }
    }

    /** Gives up on each stuck thread in its place, while the bound allows. Supervisor thread only. */
    private void replaceStuck() {
        long now = System.nanoTime();
        for (Worker w : threads) {
            Job j = w.job;
            // Only this thread raises the count, so checking it first never lets it pass the bound.
            if (j == null || now - j.deadlineNanos <= stuckAfterNanos || abandoned.get() >= maxAbandoned || closed) {
                continue;
            }
            if (j.abandon()) {
                abandoned.incrementAndGet();
                startThread();
                LOG.warn("{} abandoned {}, still busy {} ms past its request's deadline (a rule that does not stop); "
                                + "a new thread takes its place ({} of at most {} abandoned threads running)", name,
                        w.getName(), TimeUnit.NANOSECONDS.toMillis(now - j.deadlineNanos), abandoned.get(), maxAbandoned);
                try {
                    j.onAbandoned.run();
                } catch (RuntimeException e) {
                    LOG.error("{}: the abandon callback failed", name, e);
                }
            }
        }
    }

    private void startThread() {
        Worker w = new Worker(name + "-" + started.incrementAndGet());
        threads.add(w);
        w.start();
    }

    /** Stops taking work: threads end once the work queued before this call is done. Never waits. */
    @Override
    public void close() {
        closed = true;
        queue.add(STOP);
    }

    /**
     * One task. Its state says who was first once it runs: the thread finishing it (it goes on to
     * the next task) or the supervisor abandoning it (the thread ends after it).
     */
    private static final class Job extends AtomicInteger {
        static final int RUNNING = 0;
        static final int DONE = 1;
        static final int ABANDONED = 2;

        final long deadlineNanos;
        final Runnable task;
        final Runnable onAbandoned;

        Job(long deadlineNanos, Runnable task, Runnable onAbandoned) {
            this.deadlineNanos = deadlineNanos;
            this.task = task;
            this.onAbandoned = onAbandoned;
        }

        boolean finish() {
            return compareAndSet(RUNNING, DONE);
        }

        boolean abandon() {
            return compareAndSet(RUNNING, ABANDONED);
        }
    }

    private final class Worker extends Thread {
        /** The task running now, or null; read by the supervisor. */
        volatile Job job;

        Worker(String threadName) {
            super(threadName);
            // An abandoned thread may run for as long as its rule does; it must not hold the JVM open.
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    Job j = queue.take();
                    if (j == STOP) {
                        queue.add(STOP);
                        return;
                    }
                    job = j;
                    try {
                        j.task.run();
                    } catch (RuntimeException | Error e) {
                        LOG.error("{}: a task failed outside its own error handling", getName(), e);
                    } finally {
                        job = null;
                    }
                    if (!j.finish()) {
                        abandoned.decrementAndGet();
                        LOG.info("{}: abandoned thread {} ended its work and stops", name, getName());
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                threads.remove(this);
            }
        }
    }
}
