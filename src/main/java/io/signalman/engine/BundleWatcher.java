package io.signalman.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the rules and fixtures folders and reloads when they change, on its own thread.
 *
 * <p>NOTE(why polling): a WatchService needs a registration per folder and misses changes on
 * some file systems; a listing of paths, sizes and modification times every quarter second costs
 * microseconds for a bundle of this size. A change is acted on once the listing has stayed the
 * same for one more poll (debounce), so an editor's save-rename dance or a git checkout reloads once.
 */
public final class BundleWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BundleWatcher.class);

    private final List<Path> folders;
    private final Runnable reload;
    private final ScheduledExecutorService timer;
    private String loaded;
    private String pending;

    public BundleWatcher(List<Path> folders, long pollMillis, Runnable reload) {
        this.folders = folders;
        this.reload = reload;
        this.loaded = signature();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "signalman-rules-watcher");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::poll, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
    }

    /** Reloads through the engine, logging the outcome. */
    public static Runnable reloading(Engine engine) {
        return () -> {
            try {
                RuleBundle b = engine.load();
                LOG.info("reloaded rules: now serving {}", b.revision());
            } catch (BundleException e) {
                LOG.warn("{} new rules ({} errors); still serving {}: {}",
                        e instanceof GateRefused ? "the gate refused the" : "refused", e.errors().size(),
                        engine.current().map(RuleBundle::revision).orElse("nothing"), e.errors().get(0));
            } catch (RuntimeException e) {
                LOG.error("reload failed", e);
            }
        };
    }

    /**
     * Tells the watcher that a load is about to read the folders (whoever asked for it: an admin, an
     * activation, this watcher): what is on disk now is what that load will see, so the watcher does
     * not load it again. Called before the read, never after, so a change made while the load runs
     * is still seen and loaded.
     */
    public void reading() {
        String now = signature();
        synchronized (this) {
            loaded = now;
            pending = null;
        }
    }

    /** One look at the folders (the timer calls it every poll; tests call it to step through). */
    void poll() {
        String now = signature();
        boolean load;
        synchronized (this) {
            load = !now.equals(loaded) && now.equals(pending);
            pending = now.equals(loaded) || load ? null : now;
            if (load) {
                loaded = now;
            }
        }
        // Outside the lock: the load calls reading(), on this thread or, for an admin's, on another.
        if (load) {
            reload.run();
        }
    }

    /**
     * Every file's path, size and time. A {@code .git} folder is not looked into: Git's own files
     * are no rules and no fixtures, and a rules folder that is a repository's root
     * ({@code serve --rules-git}) would otherwise reload at each commit, fetch or status.
     */
    private String signature() {
        StringBuilder sb = new StringBuilder();
        for (Path folder : folders) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(folder)) {
                walk.filter(p -> Files.isRegularFile(p) && !inGit(folder, p)).sorted().forEach(p -> {
                    try {
                        sb.append(p).append(':').append(Files.size(p)).append(':').append(Files.getLastModifiedTime(p).toMillis()).append('\n');
                    } catch (IOException e) {
                        sb.append(p).append(":gone\n");
                    }
                });
            } catch (IOException | java.io.UncheckedIOException e) {
                sb.append(folder).append(":unreadable\n");
            }
        }
        return sb.toString();
    }

    private static boolean inGit(Path folder, Path p) {
        for (Path part : folder.relativize(p)) {
            if (part.toString().equals(".git")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
