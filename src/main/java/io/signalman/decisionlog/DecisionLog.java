package io.signalman.decisionlog;

import io.signalman.datadir.Disk;
import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Storage;
import io.signalman.datadir.StorageUnavailable;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends decision records as JSONL under a directory, on its own writer thread, each line sealed
 * with its checksum ({@link RecordLine}).
 *
 * <p>{@link #append} is called by the threads that decide (Vert.x workers, never the event loop).
 * It only enqueues; when the queue is full it waits for the writer, which slows deciding down
 * rather than losing a record. The writer drains the queue in batches (whatever arrived while it
 * wrote the last one: group commit), writes each batch with one system call, and forces it to disk
 * according to the {@link FsyncPolicy}. {@link #close} writes everything still queued before it
 * returns. A file is rolled at {@link #ROLL_BYTES} and then compressed in the background
 * ({@link RollCompressor}).
 *
 * <p>What an acknowledgement promises: a client is answered only after
 * {@link #awaitDurable} of its record, which returns once the record is <em>written</em> to the
 * file (so a kill -9, which keeps the page cache, loses nothing acknowledged, in every policy),
 * and under {@link FsyncPolicy#ALWAYS} once it is also <em>forced</em> (so a power cut loses
 * nothing acknowledged either). When the disk refuses a batch (full, failing), the batch is cut
 * back out of the file and <em>refused</em>: its waiters get {@link StorageUnavailable} and it is
 * never written later, so a 503 means nothing was logged; {@link Storage} refuses new appends until
 * the disk takes writes again, then the log writes again by itself.
 *
 * <p>NOTE(size): over the ~200-line guide: the queue, the positions clients wait for, and the
 * writer's handling of a refused batch share the writer's state, and each explains the others' waits.
 */
public final class DecisionLog implements AutoCloseable {

    public static final long ROLL_BYTES = 64L * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
    private static final int MAX_BATCH = 4096;

    /**
     * One record on its way to the file: its position in the log (1, 2, ... in queue and file
     * order), and, once the writer has dealt with it, whether it was written (and where it ends,
     * a receipt an idempotency answer keeps) or refused.
     */
    public static final class Appended {
        static final int QUEUED = 0;
        static final int WRITTEN = 1;
        static final int FORCED = 2;
        static final int REFUSED = -1;

        private final byte[] line;
        private final long position;
        private volatile int state;
        /** Who is told when the record settles, instead of a thread waiting (guarded by the log's {@code settled}). */
        private java.util.function.Consumer<RuntimeException> then;
        private volatile String file;
        private volatile long end;

        Appended(byte[] line, long position) {
            this.line = line;
            this.position = position;
        }

        public long position() {
            return position;
        }

        /** The log file the record was written to (its name), once written. */
        public String file() {
            return file;
        }

        /** The byte offset just past the record in {@link #file()}, once written. */
        public long end() {
            return end;
        }
    }

    private static final Appended POISON = new Appended(new byte[0], -1);

    private final Path dir;
    private final FsyncPolicy fsync;
    private final Storage storage;
    private final BlockingQueue<Appended> queue;
    private final Thread writer;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final RollCompressor compressor;
    private final LogFile file;
    /** Waiters wait on this; the writer notifies it after each batch. */
    private final Object settled = new Object();
    /** Records queued so far (guarded by the queue's monitor). */
    private long appended;
    /** Every position up to these is written (or refused) / forced (or refused). Guarded by {@link #settled}. */
    private long writtenThrough;
    private long forcedThrough;
    private volatile boolean forceRequested;
    private volatile boolean closed;
    private long lastForce;

    /** A log outside any data directory, on the real disk (tests, benchmarks). */
    public DecisionLog(Path dir, FsyncPolicy fsync, int capacity) {
        this(dir, fsync, capacity, Disk.REAL, new Storage(Disk.REAL), FileRegistry.NONE);
    }

    /** A log writing through {@code disk} (tests make it refuse writes), its outages shared through {@code storage}. */
    public DecisionLog(Path dir, FsyncPolicy fsync, int capacity, Disk disk, Storage storage, FileRegistry registry) {
        this.dir = dir;
        this.fsync = fsync;
        this.storage = storage;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.compressor = new RollCompressor(registry);
        try {
            this.file = new LogFile(dir, disk, registry, compressor, ROLL_BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the decision log in " + dir, e);
        }
        this.writer = new Thread(this::run, "signalman-decision-log");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Queues one record; waits only if the writer is a full queue behind. Not for the event loop.
     * The caller answers its client only after {@link #awaitDurable} of what this returns.
     *
     * @throws StorageUnavailable while the disk refuses writes (nothing is queued then)
     */
    public Appended append(DecisionRecord record) {
        if (closed) {
            throw new IllegalStateException("the decision log is closed");
        }
        storage.ensureWritable();
        byte[] line = RecordLine.seal(Json.bytes(record.toJson()));
        try {
            // The position is taken with the put, so positions follow queue (and file) order.
            synchronized (queue) {
                Appended a = new Appended(line, appended + 1);
                queue.put(a);
                appended++;
                return a;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing a decision record", e);
        }
    }

    /** Refuses at once while the disk refuses writes, so nothing is decided that cannot be logged. */
    public void ensureAvailable() {
        storage.ensureWritable();
    }

    /** False while the disk refuses writes (reported by {@code /ready} and {@code /metrics}). */
    public boolean available() {
        return storage.available();
    }

    /**
     * Waits until the record is as durable as an acknowledgement promises: written to the file
     * (every policy), and forced to disk under {@code always}. Worker threads only.
     *
     * @throws StorageUnavailable when the disk refused the record's batch: it is not in the log,
     *                            and never will be
     */
    public void awaitDurable(Appended a) {
        int target = fsync == FsyncPolicy.ALWAYS ? Appended.FORCED : Appended.WRITTEN;
        synchronized (settled) {
            while (a.state >= Appended.QUEUED && a.state < target) {
                if (stopped.getCount() == 0) {
                    throw new IllegalStateException("the decision log stopped before the record was written");
                }
                try {
                    settled.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the decision log", e);
                }
            }
        }
        if (a.state == Appended.REFUSED) {
            throw storage.refuse();
        }
    }

    /**
     * Tells {@code then}, instead of a waiting thread, once the record is as durable as an
     * acknowledgement promises (the moment {@link #awaitDurable} would return): with null, or with
     * the {@link StorageUnavailable} of a refused batch, or an {@link IllegalStateException} when
     * the log stopped first. Called once, on the log's writer thread (or on this one when the
     * record is settled already): {@code then} must return at once, handing the answer over.
     * This lets an answer leave when its record is written without a worker thread held waiting
     * for it, and the writer take as many records per write as there are answers in flight.
     */
    public void whenDurable(Appended a, java.util.function.Consumer<RuntimeException> then) {
        RuntimeException outcome;
        synchronized (settled) {
            if (a.state == Appended.QUEUED && stopped.getCount() != 0) {
                a.then = then;
                return;
            }
            outcome = outcome(a);
        }
        then.accept(outcome);
    }

    /** What a settled record's waiter is told: null when durable, else why not. Under {@link #settled}. */
    private RuntimeException outcome(Appended a) {
        if (a.state == Appended.REFUSED) {
            return storage.refuse();
        }
        return a.state == Appended.QUEUED ? new IllegalStateException("the decision log stopped before the record was written")
                : null;
    }

    /** Records queued so far: the position {@link #sync} waits for. */
    public long appended() {
        synchronized (queue) {
            return appended;
        }
    }

    /**
     * Waits until every record up to {@code position} is written and forced (or refused),
     * whatever the policy (asking the writer to force now): a state snapshot, or an idempotency
     * answer forced to disk, must never be ahead of the log. Off the request path.
     */
    public void sync(long position) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (settled) {
            while (forcedThrough < position) {
                if (stopped.getCount() == 0 || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the decision log did not reach the disk"
                            + (storage.failure() == null ? "" : ": " + storage.failure()));
                }
                forceRequested = true;
                try {
                    settled.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the decision log", e);
                }
            }
        }
    }

    /** Records written to the file so far. */
    public long written() {
        return written.get();
    }

    /** Records refused because the disk refused their batch. */
    public long refused() {
        return refused.get();
    }

    public Path currentFile() {
        return file.current();
    }

    public Path directory() {
        return dir;
    }

    /** The error the disk gives while it refuses writes, or null while the data directory takes them. */
    public IOException failure() {
        return storage.failure();
    }

    /** Writes everything queued, forces it to disk and closes the file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            queue.put(POISON);
            if (!stopped.await(60, TimeUnit.SECONDS)) {
                LOG.error("decision log writer did not finish within 60 s; {} records still queued", queue.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        compressor.close();
    }

    private void run() {
        List<Appended> batch = new ArrayList<>(1024);
        boolean stop = false;
        try {
            while (!stop) {
                Appended first = queue.poll(1, TimeUnit.SECONDS);
                batch.clear();
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, MAX_BATCH);
                    stop = batch.remove(POISON);
                }
                write(batch, stop);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            List<Appended> rest = new ArrayList<>();
            queue.drainTo(rest);
            rest.remove(POISON);
            write(rest, true);
            try {
                file.close();
            } catch (IOException | RuntimeException e) {
                storage.failed(file.current(), e instanceof IOException io ? io : new IOException(e));
                LOG.error("decision log could not be closed cleanly: {}", e.toString());
            }
            List<Runnable> told = new ArrayList<>();
            synchronized (settled) {
                stopped.countDown();
                // Records queued past the last drain (an append racing close) are never written: say so.
                List<Appended> never = new ArrayList<>();
                queue.drainTo(never);
                never.remove(POISON);
                for (Appended a : never) {
                    tell(a, told);
                }
                settled.notifyAll();
            }
            tellAll(told);
        }
    }

    /**
     * Writes a batch once, in order, and forces it when due; a batch the disk refuses (or, under
     * {@code always}, cannot force) is taken back out of the file and refused, never retried.
     */
    private void write(List<Appended> batch, boolean force) {
        if (batch.isEmpty()) {
            forceIfDue(force);
            return;
        }
        List<byte[]> lines = new ArrayList<>(batch.size());
        long bytes = 0;
        for (Appended a : batch) {
            lines.add(a.line);
            bytes += a.line.length;
        }
        try {
            file.write(lines);
        } catch (IOException e) {
            refuse(batch, e);
            return;
        }
        written.addAndGet(batch.size());
        long end = file.wholeBytes() - bytes;
        String name = file.current().getFileName().toString();
        for (Appended a : batch) {
            end += a.line.length;
            a.file = name;
            a.end = end;
        }
        if (fsync == FsyncPolicy.ALWAYS) {
            try {
                file.force();
            } catch (IOException e) {
                // Written but not known to be on disk: nobody was told yet, so it is taken back out.
                file.takeBack(bytes);
                written.addAndGet(-batch.size());
                refuse(batch, e);
                return;
            }
            lastForce = System.nanoTime();
            settle(batch, Appended.FORCED, true);
            return;
        }
        settle(batch, Appended.WRITTEN, false);
        forceIfDue(force);
    }

    private void refuse(List<Appended> batch, IOException e) {
        storage.failed(file.current(), e);
        refused.addAndGet(batch.size());
        settle(batch, Appended.REFUSED, !file.unforced());
    }

    /** Marks a batch and wakes its waiters; {@code forced}: nothing written is left unforced. */
    private void settle(List<Appended> batch, int state, boolean forced) {
        List<Runnable> told = new ArrayList<>();
        synchronized (settled) {
            for (Appended a : batch) {
                a.state = state;
                tell(a, told);
            }
            writtenThrough = batch.get(batch.size() - 1).position;
            if (forced) {
                forcedThrough = writtenThrough;
            }
            settled.notifyAll();
        }
        // Outside the monitor: a listener hands its answer over and returns, but never while waiters are kept out.
        tellAll(told);
    }

    /** Runs each telling; one that throws is logged, so the writer goes on writing for everyone else. */
    private static void tellAll(List<Runnable> told) {
        for (Runnable r : told) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.error("a listener of the decision log failed: {}", e.toString(), e);
            }
        }
    }

    /** Adds the telling of {@code a}'s listener, if it has one, to {@code told}. Under {@link #settled}. */
    private void tell(Appended a, List<Runnable> told) {
        java.util.function.Consumer<RuntimeException> then = a.then;
        if (then != null) {
            a.then = null;
            RuntimeException outcome = outcome(a);
            told.add(() -> then.accept(outcome));
        }
    }

    private void forceIfDue(boolean always) {
        if (!file.unforced()) {
            forceRequested = false;
            markForced();
            return;
        }
        long now = System.nanoTime();
        boolean due = forceRequested || switch (fsync) {
            case ALWAYS -> true;
            case INTERVAL -> now - lastForce >= TimeUnit.SECONDS.toNanos(1);
            case NEVER -> false;
        };
        if (due || always) {
            forceRequested = false;
            try {
                file.force();
                lastForce = now;
                markForced();
            } catch (IOException e) {
                // What was written is acknowledged and stays in the file; only a power cut could lose it now.
                storage.failed(file.current(), e);
            }
        }
    }

    private void markForced() {
        synchronized (settled) {
            if (forcedThrough != writtenThrough) {
                forcedThrough = writtenThrough;
                settled.notifyAll();
            }
        }
    }
}
