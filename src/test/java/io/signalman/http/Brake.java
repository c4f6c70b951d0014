package io.signalman.http;

import io.signalman.TestBundles;
import io.signalman.rulelang.RuleFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Helpers for the test bundle {@code src/test/bundles/slow-rules}: rules that are slow on purpose,
 * so the tests control how long work takes without timing anything themselves. The gate is
 * static because the rules reach it by name; each test closes and opens it around its own use.
 */
public final class Brake {

    static final Path BUNDLE = Path.of("src/test/bundles/slow-rules");

    static {
        // The slow rules call this class, which the rule language refuses: they test what lies behind it.
        RuleFile.exemptFilesImporting(Brake.class);
    }

    private static volatile CountDownLatch gate = new CountDownLatch(0);
    private static final AtomicInteger HELD = new AtomicInteger();
    private static final AtomicLong CRAWLED = new AtomicLong();

    private Brake() {
    }

    /** A condition that waits until the test opens the gate (at most 60 s, so nothing hangs forever). */
    public static boolean hold() {
        HELD.incrementAndGet();
        try {
            gate.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            HELD.decrementAndGet();
        }
        return true;
    }

    /** One slow firing of the runaway rule: a few milliseconds parked, so 10,000 take a minute. */
    public static void crawl() {
        CRAWLED.incrementAndGet();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }

    static void close() {
        gate = new CountDownLatch(1);
    }

    static void open() {
        gate.countDown();
    }

    /** Evaluations waiting at the gate now. */
    static int held() {
        return HELD.get();
    }

    /** Firings of the runaway rule so far. */
    static long crawled() {
        return CRAWLED.get();
    }

    /** The test bundle with the shipped org chart, in {@code dir}. */
    static Path rules(Path dir) {
        Path rules = dir.resolve("rules");
        try {
            Files.createDirectories(rules.resolve("broker"));
            Files.copy(BUNDLE.resolve("broker/routing.drl"), rules.resolve("broker/routing.drl"));
            Files.copy(TestBundles.RULES.resolve("broker/org-chart.json"), rules.resolve("broker/org-chart.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rules;
    }
}
