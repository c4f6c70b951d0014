package io.signalman.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.Writing;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.FsyncPolicy;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's state: the stores of the stateful packs, and, when durable, their files
 * under {@code DATA/state/}. The design chosen by measurement against an embedded store (README, Operations):
 * the decision log is the write-ahead log of every decision's state change ({@code state_after});
 * the state journal holds the other changes; a snapshot now and then (and at every clean stop)
 * bounds what a start-up reads. See {@link StateFiles} for recovery.
 */
public final class LocalState implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalState.class);
    /** A snapshot is taken after this many changes, or after {@link #SNAPSHOT_MINUTES} with any change. */
    static final long SNAPSHOT_CHANGES = 500_000;
    static final long SNAPSHOT_MINUTES = 10;
    static final long SWEEP_SECONDS = 30;

    private final StateConfig config;
    private final Map<String, LocalStateStore<?>> stores = new LinkedHashMap<>();
    private final ReentrantReadWriteLock barrier = new ReentrantReadWriteLock();
    private final AtomicLong versions = new AtomicLong();
    private final AtomicLong changes = new AtomicLong();
    private final StateFiles files;
    private StateJournal journal;
    /** Where write failures are reported and changes refused during an outage (null in memory). */
    private io.signalman.datadir.Storage storage;
    private ScheduledExecutorService timer;
    private long lastSnapshotNanos = System.nanoTime();

    private LocalState(StateConfig config, List<StoreSpec<?>> specs, StateFiles files) {
        this.config = config;
        this.files = files;
        for (StoreSpec<?> s : specs) {
            stores.put(s.name(), new LocalStateStore<>(s, this));
        }
    }

    /** State in memory only: lost at every stop (the benchmark's baseline, and tests that want it so). */
    public static LocalState inMemory(StateConfig config, List<StoreSpec<?>> specs) {
        return new LocalState(config, specs, null);
    }

    /**
     * Opens (and recovers) the state under {@code dir}, reading the decision log's directory for
     * the decisions made since the last snapshot, outside any data directory (tests, benchmarks).
     * Blocking; at start-up, before serving.
     */
    public static LocalState open(StateConfig config, List<StoreSpec<?>> specs, Path dir, DecisionLog log, FsyncPolicy fsync) {
        return open(config, specs, dir, log, fsync, Writing.plain(), false);
    }

    /**
     * Opens (and recovers) the state under {@code dir}, writing as {@code writing} says; with
     * {@code rewrite} (a data directory just upgraded from format 1) a snapshot is written at once,
     * so that every state file is sealed from now on.
     */
    public static LocalState open(StateConfig config, List<StoreSpec<?>> specs, Path dir, DecisionLog log, FsyncPolicy fsync,
                                  Writing writing, boolean rewrite) {
        return open(config, specs, new StateFiles(dir, log.directory(), log, fsync, writing), dir, false, rewrite);
    }

    /**
     * Opens the state under {@code dir} with no server running (export, import): it reads the
     * decision log in {@code logDir} but writes none, and forces every write.
     */
    public static LocalState openOffline(StateConfig config, List<StoreSpec<?>> specs, Path dir, Path logDir, boolean readOnly,
                                         Writing writing) {
        return open(config, specs, new StateFiles(dir, logDir, null, FsyncPolicy.ALWAYS, writing), dir, readOnly, false);
    }

    /** Read-only (an export beside a running server): recovers in memory, writes no file. */
    private static LocalState open(StateConfig config, List<StoreSpec<?>> specs, StateFiles files, Path dir, boolean readOnly,
                                   boolean rewrite) {
        LocalState state = new LocalState(config, specs, readOnly ? null : files);
        state.read = files;
        long t0 = System.nanoTime();
        StateFiles.Recovered r = files.recover(state);
        state.versions.set(r.maxVersion());
        if (!readOnly) {
            state.storage = files.writing().storage();
            state.journal = files.openJournal();
            if (r.replayed() > 0 || rewrite) {
                state.snapshot(false);
            }
        }
        LOG.info("state recovered from {} in {} ms: {} (snapshot {}, {} later changes replayed)", dir,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), state.sizes(), r.snapshot(), r.replayed());
        return state;
    }

    /**
     * Forces {@code work} with the journal, every second (the idempotency answers under
     * {@code --fsync interval}); runs on the state's timer thread.
     */
    public void forceEachTick(Runnable work) {
        forcedEachTick.add(work);
    }

    private final List<Runnable> forcedEachTick = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Starts the timer that forces the journal, takes snapshots and applies retention. */
    public LocalState start() {
        return start(TimeUnit.SECONDS.toMillis(1));
    }

    /** {@link #start()} with the journal forced every {@code tickMillis} (a test makes it fast). */
    LocalState start(long tickMillis) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "signalman-state");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::tick, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(() -> guarded(this::sweep), SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
        return this;
    }

    /** Every entry (not tombstones) as {@link StateLine}s, store by store: {@code signalman state export}. */
    public void export(java.util.function.Consumer<ObjectNode> out) {
        stores.values().forEach(s -> s.entries(out));
    }

    /** Stores an exported entry as a new change of its key (a new version); {@code signalman state import}. */
    public void importLine(StateLine line) {
        LocalStateStore<?> s = stores.get(line.store());
        if (s == null) {
            throw new IllegalArgumentException("no state store \"" + line.store() + "\"; known: " + stores.keySet());
        }
        s.importValue(line.id(), line.value());
    }

    /** The stores, by name, for {@link StateStores}. */
    public StateStores stores() {
        return StateStores.of(stores);
    }

    public StateConfig config() {
        return config;
    }

    /** Applies retention now (the timer does every {@link #SWEEP_SECONDS}); returns the entries removed. */
    public int sweep() {
        if (storage != null && !storage.available()) {
            return 0; // an expiry is a change: none is made while the disk cannot take writes
        }
        long now = now();
        return stores.values().stream().mapToInt(s -> s.sweep(now)).sum();
    }

    /**
     * Whether the state holds the change {@code version} of {@code id} in {@code store} (or a later
     * one): what a stored idempotency answer's receipt asks at start-up.
     */
    public boolean holds(String store, String id, long version) {
        LocalStateStore<?> s = stores.get(store);
        return s != null && s.version(id) >= version;
    }

    /**
     * Where each of {@code ids} of {@code store} was read from at start (file, line, byte offset),
     * for an error about what it holds; empty in memory.
     */
    public Map<String, String> locate(String store, java.util.Set<String> ids) {
        return read == null || ids.isEmpty() ? Map.of() : read.locate(store, ids);
    }

    /** The files the state was recovered from (also when read-only, where {@link #files} is null). */
    private StateFiles read;

    /** Per store: live, finished, tombstones held, expired since start. */
    public Map<String, long[]> counts() {
        Map<String, long[]> out = new LinkedHashMap<>();
        stores.forEach((name, s) -> {
            long[] c = s.counts();
            out.put(name, new long[] {c[0], c[1], c[2], s.expiredTotal()});
        });
        return out;
    }

    /** Writes a snapshot now (the timer does it by itself); a no-op in memory. */
    public void snapshot() {
        snapshot(false);
    }

    private synchronized void snapshot(boolean logClosed) {
        if (files == null) {
            return;
        }
        files.snapshot(this, logClosed);
        changes.set(0);
        lastSnapshotNanos = System.nanoTime();
    }

    /**
     * Stops the timer and writes a last snapshot: the next start reads it and nothing else. The
     * timer is let finish what it is doing, never interrupted: an interrupt during a file write or
     * force closes the journal's channel under everyone (a {@code FileChannel} is interruptible).
     */
    @Override
    public void close() {
        if (timer != null) {
            timer.shutdown();
            try {
                if (!timer.awaitTermination(1, TimeUnit.MINUTES)) {
                    LOG.warn("state upkeep still running after a minute; closing the state anyway");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (files != null) {
            try {
                snapshot(true);
            } catch (RuntimeException e) {
                // Nothing is lost: every change is in the journal or the log; the next start reads them instead.
                LOG.error("the last state snapshot could not be written ({}); the next start replays the journal and the "
                        + "decision log since the previous one", e.getMessage());
            }
            try {
                journal.close();
            } catch (RuntimeException e) {
                LOG.error("the state journal could not be closed cleanly: {}", e.getMessage());
            }
        }
    }

    // ---- for the stores and StateFiles ----

    ReentrantReadWriteLock barrier() {
        return barrier;
    }

    /** Refuses a change before it is made while the data directory cannot take writes. */
    void ensureWritable() {
        if (storage != null) {
            storage.ensureWritable();
        }
    }

    long nextVersion() {
        changes.incrementAndGet();
        return versions.incrementAndGet();
    }

    long currentVersion() {
        return versions.get();
    }

    long now() {
        return config.clock().millis();
    }

    void journal(ObjectNode line) {
        if (journal != null) {
            journal.append(line);
        }
    }

    StateJournal journalFile() {
        return journal;
    }

    Map<String, LocalStateStore<?>> all() {
        return stores;
    }

    private String sizes() {
        StringBuilder b = new StringBuilder();
        stores.forEach((n, s) -> b.append(b.length() == 0 ? "" : ", ").append(s.size()).append(' ').append(n));
        return b.toString();
    }

    private void tick() {
        if (journal == null || storage != null && !storage.available()) {
            return; // during an outage Storage reports the condition and probes; forcing would only fail again
        }
        guarded(() -> {
            journal.force();
            forcedEachTick.forEach(Runnable::run);
            boolean due = changes.get() >= SNAPSHOT_CHANGES
                    || changes.get() > 0 && System.nanoTime() - lastSnapshotNanos > TimeUnit.MINUTES.toNanos(SNAPSHOT_MINUTES);
            if (due) {
                snapshot();
            }
            return 0;
        });
    }

    private static void guarded(java.util.concurrent.Callable<?> work) {
        try {
            work.call();
        } catch (java.io.UncheckedIOException | io.signalman.datadir.StorageUnavailable e) {
            // The disk's refusal, already reported as an outage by the writer: one line, no stack.
            LOG.error("state upkeep could not write (it runs again once the disk takes writes): {}", e.getMessage());
        } catch (Exception e) {
            LOG.error("state upkeep failed (it runs again shortly): {}", e.toString(), e);
        }
    }
}
