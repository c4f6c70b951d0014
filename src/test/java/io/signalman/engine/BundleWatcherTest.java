package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folder watcher loads a change once, and never a change a load asked for by someone else (an
 * admin's reload, an activation) has already read: a refused bundle was counted and logged twice
 * when the watcher loaded it again behind an admin's reload.
 */
class BundleWatcherTest {

    private static final long POLL_MILLIS = 20;

    @TempDir
    Path dir;
    private final AtomicInteger watcherLoads = new AtomicInteger();
    private final AtomicReference<BundleWatcher> watcher = new AtomicReference<>();
    private Path rule;

    @BeforeEach
    void start() throws Exception {
        rule = dir.resolve("a.drl");
        Files.writeString(rule, "v1");
        // As the engine wires it: every load, the watcher's own included, tells the watcher first.
        watcher.set(new BundleWatcher(List.of(dir), POLL_MILLIS, () -> {
            watcher.get().reading();
            watcherLoads.incrementAndGet();
        }));
    }

    @AfterEach
    void stop() {
        watcher.get().close();
    }

    @Test
    void aChangeIsLoadedOnceWhenItHasSettled() throws Exception {
        Files.writeString(rule, "v2, longer");
        Await.until(Duration.ofSeconds(10), "the watcher to load the change", () -> watcherLoads.get() == 1);
        quiet();
        assertEquals(1, watcherLoads.get(), "loaded again though nothing changed");
    }

    @Test
    void aChangeAnotherLoadHasReadIsNotLoadedAgain() throws Exception {
        Files.writeString(rule, "v2, longer");
        watcher.get().reading();
        quiet();
        assertEquals(0, watcherLoads.get(), "the watcher loaded what an admin's reload had already read");
    }

    @Test
    void aChangeMadeAfterAnotherLoadReadTheFoldersIsStillLoaded() throws Exception {
        watcher.get().reading();
        Files.writeString(rule, "v2, longer");
        Await.until(Duration.ofSeconds(10), "the watcher to load the later change", () -> watcherLoads.get() == 1);
    }

    /** Long enough for many polls, past the one-poll debounce. */
    private static void quiet() throws InterruptedException {
        Thread.sleep(POLL_MILLIS * 15);
    }
}
