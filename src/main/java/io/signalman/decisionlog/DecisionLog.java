package io.signalman.decisionlog;

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
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends decision records as JSONL under a directory, on its own writer thread.
 *
 * <p>{@link #append} is called by the threads that decide (Vert.x workers, never the event loop).
 * It only enqueues; when the queue is full it waits for the writer, which slows deciding down
 * rather than losing a record. The writer drains the queue in batches, writes each batch with one
 * system call, and forces it to disk according to the {@link FsyncPolicy}. {@link #close} writes
 * everything still queued before it returns. A file is rolled at {@link #ROLL_BYTES} and then
 * compressed in the background ({@link RollCompressor}).
 *
 * <p>What a decision's acknowledgement promises (its client is answered only after
 * {@link #append}, and {@link #awaitDurable} of its position): under {@link FsyncPolicy#ALWAYS}
 * the record is written and forced to disk; under the other policies it is queued in memory while
 * the log is writing. When the disk refuses a write (full, failing) the log is <em>unavailable</em>:
 * {@link #append} and {@link #ensureAvailable} throw {@link DecisionLogUnavailable}, so nothing is
 * acknowledged that cannot be logged; the writer cuts the file back to its last whole record (a
 * partial write never leaves a broken line in a file), keeps every record it holds, and retries
 * with a growing pause (up to {@link #RETRY_MAX_MILLIS}) until the disk takes the write; then the
 * log is available again by itself.
 *
 * <p>The file itself (cutting back, rolling, writing a batch) is {@link LogFile}'s; this class
 * keeps the queue, the positions a client waits for, and the writer's outage handling.
 *
 * <p>NOTE(size): over the ~200-line guide: those three share the writer's state (what is queued,
 * written and forced, and the outage), and each explains the others' waits.
 */
public final class DecisionLog implements AutoCloseable {

    public static final long ROLL_BYTES = 64L * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
    private static final byte[] POISON = new byte[0];
    private static final int MAX_BATCH = 4096;
    /**
     * NOTE(perf): after a batch that did not fill, the writer sleeps this long before draining
     * again instead of waiting on the queue, so a deciding thread rarely has to wake it: waking the
     * writer for every record (one wake-up, one {@code write} call per record) cost about 5 µs of a
     * broker request at 38,000 requests/s, measured with async-profiler under {@code HttpLoad}.
     * A record reaches the file at most this much later; responses never wait for the file.
     */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The pause between two attempts to write through an outage grows from 10 ms to this. */
    static final long RETRY_MAX_MILLIS = 1000;
    /** After {@link #close}, how long the writer keeps retrying an outage before it gives up. */
    static final long CLOSE_RETRY_MILLIS = 20_000;

    private final Path dir;
    private final FsyncPolicy fsync;
    private final BlockingQueue<byte[]> queue;
    private final Thread writer;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong outages = new AtomicLong();
    private final RollCompressor compressor = new RollCompressor();
    private final LogFile file;
    private final Object forcedLock = new Object();
    /** Records queued so far (guarded by the queue's monitor) and records written and forced. */
    private long appended;
    private long forced;
    private volatile boolean forceRequested;
    private volatile boolean closed;
    /** When {@link #close} was called ({@link System#nanoTime}): an outage is retried until this plus CLOSE_RETRY_MILLIS. */
    private volatile long closedAt;
    /** Non-null while the disk refuses writes: the error it gave. */
    private volatile IOException failure;
    private long lastForce;

    public DecisionLog(Path dir, FsyncPolicy fsync, int capacity) {
        this(dir, fsync, capacity, Disk.REAL);
    }

    /** With {@code disk} standing in for the real one (tests make it refuse writes). */
    public DecisionLog(Path dir, FsyncPolicy fsync, int capacity, Disk disk) {
        this.dir = dir;
        this.fsync = fsync;
        this.queue = new ArrayBlockingQueue<>(capacity);
        try {
            this.file = new LogFile(dir, disk, compressor, ROLL_BYTES);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the decision log in " + dir, e);
        }
        this.writer = new Thread(this::run, "signalman-decision-log");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Queues one record; waits only if the writer is a full queue behind. Not for the event loop.
     * Returns the record's position in the log (1, 2, ...), for {@link #awaitDurable}.
     *
     * @throws DecisionLogUnavailable while the disk refuses writes (nothing is queued then)
     */
    public long append(DecisionRecord record) {
        if (closed) {
            throw new IllegalStateException("the decision log is closed");
        }
        ensureAvailable();
        byte[] line = line(record);
        try {
            // The position is taken with the put, so positions follow queue (and file) order.
            synchronized (queue) {
                queue.put(line);
                return ++appended;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing a decision record", e);
        }
    }

    /** Refuses at once while the disk refuses writes, so nothing is decided that cannot be logged. */
    public void ensureAvailable() {
        IOException e = failure;
        if (e != null) {
            throw unavailable(e);
        }
    }

    /** False while the disk refuses writes (reported by {@code /ready} and {@code /metrics}). */
    public boolean available() {
        return failure == null;
    }

    private static DecisionLogUnavailable unavailable(IOException e) {
        return new DecisionLogUnavailable("the decision log cannot write (" + e.getMessage()
                + "); the decision is not acknowledged; retry after the Retry-After delay");
    }

    /**
     * Waits until the record at {@code position} is as durable as the fsync policy promises before
     * a client hears of it: with {@code always}, written and forced to disk (a kill -9 or a power
     * cut then loses nothing acknowledged); with the other policies at once (they promise at most
     * about a second). Worker threads only.
     *
     * @throws DecisionLogUnavailable under {@code always}, when the disk refuses writes before the
     *                                record is forced (it stays held and is written when it can)
     */
    public void awaitDurable(long position) {
        if (fsync == FsyncPolicy.ALWAYS) {
            awaitForced(position, false);
        }
    }

    /** Records queued so far: the position {@link #sync} waits for. */
    public long appended() {
        synchronized (queue) {
            return appended;
        }
    }

    /**
     * Waits until every record up to {@code position} is written and forced, whatever the policy
     * (asking the writer to force now): a state snapshot must never be ahead of the log it
     * completes. Off the request path (the state's snapshot thread).
     */
    public void sync(long position) {
        awaitForced(position, true);
    }

    private void awaitForced(long position, boolean request) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        synchronized (forcedLock) {
            while (forced < position) {
                IOException outage = failure;
                if (outage != null && !request) {
                    throw unavailable(outage);
                }
                if (stopped.getCount() == 0 || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the decision log did not reach the disk"
                            + (outage == null ? "" : ": " + outage));
                }
                if (request) {
                    forceRequested = true;
                }
                try {
                    forcedLock.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the decision log", e);
                }
            }
        }
    }

    /** Records written to the file so far (not counting those still queued). */
    public long written() {
        return written.get();
    }

    /** Times the disk started refusing writes since the log opened. */
    public long outages() {
        return outages.get();
    }

    public Path currentFile() {
        return file.current();
    }

    public Path directory() {
        return dir;
    }

    /** The error the disk gives while it refuses writes, or null while the log writes. */
    public IOException failure() {
        return failure;
    }

    /** Writes everything queued, forces it to disk and closes the file. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closedAt = System.nanoTime();
        closed = true;
        try {
            queue.put(POISON);
            if (!stopped.await(30, TimeUnit.SECONDS)) {
                LOG.error("decision log writer did not finish within 30 s; {} records still queued", queue.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        compressor.close();
    }

    private static byte[] line(DecisionRecord record) {
        byte[] json = Json.bytes(record.toJson());
        byte[] line = new byte[json.length + 1];
        System.arraycopy(json, 0, line, 0, json.length);
        line[json.length] = '\n';
        return line;
    }

    private void run() {
        List<byte[]> batch = new ArrayList<>(1024);
        boolean stop = false;
        try {
            while (!stop) {
                byte[] first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    writeThrough(List.of(), false);
                    continue;
                }
                batch.clear();
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH);
                stop = batch.remove(POISON);
                writeThrough(batch, stop);
                if (!stop && batch.size() < MAX_BATCH) {
                    // Not waiting on the queue while records arrive: see LINGER_NANOS.
                    LockSupport.parkNanos(LINGER_NANOS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                List<byte[]> rest = new ArrayList<>();
                queue.drainTo(rest);
                rest.remove(POISON);
                writeThrough(rest, true);
                file.close();
            } catch (IOException | RuntimeException e) {
                LOG.error("decision log could not be closed cleanly: {}", e.toString());
            }
            stopped.countDown();
        }
    }

    /**
     * Writes a batch in order and forces it when due, retrying through an outage until the disk
     * takes it. A batch is written once: a force that fails after a good write retries the force.
     * After {@link #close}, gives up after {@link #CLOSE_RETRY_MILLIS}, saying what it lost.
     */
    private void writeThrough(List<byte[]> batch, boolean force) {
        boolean inFile = false;
        long pause = 10;
        while (true) {
            try {
                if (!inFile) {
                    file.write(batch);
                    written.addAndGet(batch.size());
                    inFile = true;
                }
                forceIfDue(force);
                if (failure != null) {
                    LOG.warn("decision log writes again to {} after the outage", file.current());
                    failure = null;
                }
                return;
            } catch (IOException e) {
                if (failure == null) {
                    outages.incrementAndGet();
                    LOG.error("decision log cannot write to {}: {}; refusing decisions (503 decision_log_unavailable) and "
                            + "retrying; {} records held", file.current(), e.toString(), batch.size() + queue.size());
                    failure = e;
                    synchronized (forcedLock) {
                        forcedLock.notifyAll(); // deciders waiting under --fsync always are answered now
                    }
                }
                if (closed && System.nanoTime() - closedAt > TimeUnit.MILLISECONDS.toNanos(CLOSE_RETRY_MILLIS)) {
                    LOG.error("decision log gives up at shutdown: {} records could not be written ({})",
                            (inFile ? 0 : batch.size()) + queue.size(), e.toString());
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pause));
                pause = Math.min(pause * 2, RETRY_MAX_MILLIS);
            }
        }
    }

    private void forceIfDue(boolean always) throws IOException {
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
            file.force();
            lastForce = now;
            markForced();
        }
    }

    private void markForced() {
        synchronized (forcedLock) {
            if (forced != written.get()) {
                forced = written.get();
                forcedLock.notifyAll();
            }
        }
    }
}
