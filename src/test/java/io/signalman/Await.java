package io.signalman;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition, checking it every few milliseconds, up to a deadline (never a fixed sleep). */
public final class Await {

    private Await() {
    }

    public static void until(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)).join();
        }
    }

    /** Waits until {@code value} gives something other than null, and returns it. */
    public static <T> T value(Duration timeout, String what, java.util.function.Supplier<T> value) {
        Object[] got = new Object[1];
        until(timeout, what, () -> (got[0] = value.get()) != null);
        @SuppressWarnings("unchecked")
        T t = (T) got[0];
        return t;
    }
}
