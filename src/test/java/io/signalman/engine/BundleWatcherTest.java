package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
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
 * when the watcher loaded it again behind an admin's reload. The test steps through the watcher's
 * looks itself (its timer is set never to fire), so no case depends on timing.
 */
class BundleWatcherTest {

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
        watcher.set(new BundleWatcher(List.of(dir), Long.MAX_VALUE / 4, () -> {
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
        look(1);
        assertEquals(0, watcherLoads.get(), "loaded before the change stayed the same for one more look");
        look(1);
        assertEquals(1, watcherLoads.get(), "the settled change was not loaded");
        look(5);
        assertEquals(1, watcherLoads.get(), "loaded again though nothing changed");
    }

    @Test
    void aChangeAnotherLoadHasReadIsNotLoadedAgain() throws Exception {
        Files.writeString(rule, "v2, longer");
        look(1);
        watcher.get().reading();
        look(5);
        assertEquals(0, watcherLoads.get(), "the watcher loaded what an admin's reload had already read");
    }

    @Test
    void aChangeMadeAfterAnotherLoadReadTheFoldersIsStillLoaded() throws Exception {
        watcher.get().reading();
        Files.writeString(rule, "v2, longer");
        look(2);
        assertEquals(1, watcherLoads.get(), "a change made after the other load's read was lost");
    }

    @Test
    void aChangeInsideAGitFolderIsNoChangeOfTheRules() throws Exception {
        // A rules folder that is a repository's root: a commit (serve --rules-git), a fetch, a status write there.
        Files.createDirectories(dir.resolve(".git/objects/ab"));
        Files.writeString(dir.resolve(".git/objects/ab/cdef"), "a commit");
        Files.writeString(dir.resolve(".git/index"), "the index");
        look(3);
        assertEquals(0, watcherLoads.get(), "a write inside .git reloaded the rules");
        Files.writeString(rule, "v2, longer");
        look(2);
        assertEquals(1, watcherLoads.get(), "a rule changed beside .git was not loaded");
    }

    private void look(int times) {
        for (int i = 0; i < times; i++) {
            watcher.get().poll();
        }
    }
}
