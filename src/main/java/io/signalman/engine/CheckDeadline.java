package io.signalman.engine;

import io.signalman.cost.Budgets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A check of a bundle under a deadline ({@link Budgets#checkSeconds()}): {@code check}, the reload
 * gate's compile, a draft's save and its opening all compile through {@link BundleCompiler}, and
 * none of them may hang. The text bounds keep each parse small; this bounds what they add up to
 * (two thousand constraints nested to the limit still parse for minutes). A check past its
 * deadline answers "too complex to check", and its thread is stopped, so that it gives back the
 * compiler's lock and the CPU; the compiler then forgets its in-memory units, since the stop may
 * have landed while it kept one.
 *
 * <p>The deadline counts from when the check holds the compiler, not while it waits for another.
 */
final class CheckDeadline {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private CheckDeadline() {
    }

    /** What a compile does once it holds the compiler's lock; {@code started} is completed then. */
    interface Work<T> {
        T run(CompletableFuture<Void> started) throws BundleException;
    }

    /**
     * Runs {@code work} on a thread of its own and waits for it; past the deadline, stops it and
     * refuses the bundle as too complex to check. {@code afterStop} runs once the stopped thread has
     * ended.
     */
    static <T> T run(Work<T> work, Runnable afterStop) throws BundleException {
        CompletableFuture<Void> started = new CompletableFuture<>();
        CompletableFuture<T> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                done.complete(work.run(started));
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "signalman-check-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        t.start();
        int seconds = Budgets.current().checkSeconds();
        try {
            started.get(); // the compiler's lock: another check's own deadline bounds this wait
            return done.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            stop(t);
            afterStop.run();
            throw new BundleException(new BundleError(".", 0, 0, "too complex to check: checking these rules took longer "
                    + "than " + seconds + " s (--check-deadline-s), so they are refused; simplify the rules changed last "
                    + "(fewer or less nested conditions, smaller files)"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(t);
            afterStop.run();
            throw new BundleException(List.of(new BundleError(".", 0, 0, "the check was interrupted")));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof BundleException b) {
                throw b;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Stops the check's thread, outside any class initializer (a stop there would poison the class
     * for the JVM's life), and waits until it has ended, so the compiler's lock is free after this.
     */
    @SuppressWarnings({"deprecation", "removal"})
    private static void stop(Thread t) {
        while (t.isAlive()) {
            if (!Watchdog.initializing(t)) {
                try {
                    t.stop();
                } catch (UnsupportedOperationException e) {
                    t.interrupt(); // JDK 20 and later: the check runs on, abandoned; the text bounds still hold
                    return;
                }
            }
            try {
                t.join(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
