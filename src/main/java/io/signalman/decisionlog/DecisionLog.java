package io.signalman.decisionlog;

import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
 */
public final class DecisionLog implements AutoCloseable {

    public static final long ROLL_BYTES = 64L * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
    private static final DateTimeFormatter FILE_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
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

    private final Path dir;
    private final FsyncPolicy fsync;
    private final BlockingQueue<byte[]> queue;
    private final Thread writer;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicLong written = new AtomicLong();
    private final RollCompressor compressor = new RollCompressor();
    private final Object forcedLock = new Object();
    /** Records queued so far (guarded by the queue's monitor) and records written and forced. */
    private long appended;
    private long forced;
    private volatile boolean forceRequested;
    private volatile boolean closed;
    private volatile IOException failure;
    private FileChannel channel;
    private Path current;
    private long currentBytes;
    private int sequence;
    private long lastForce;

    public DecisionLog(Path dir, FsyncPolicy fsync, int capacity) {
        this.dir = dir;
        this.fsync = fsync;
        this.queue = new ArrayBlockingQueue<>(capacity);
        try {
            Files.createDirectories(dir);
            roll();
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
     */
    public long append(DecisionRecord record) {
        if (closed) {
            throw new IllegalStateException("the decision log is closed");
        }
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

    /**
     * Waits until the record at {@code position} is as durable as the fsync policy promises before
     * a client hears of it: with {@code always}, written and forced to disk (a kill -9 or a power
     * cut then loses nothing acknowledged); with the other policies at once (they promise at most
     * about a second). Durable state waits here before answering (SPEC 3.5). Worker threads only.
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
                if (stopped.getCount() == 0 || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the decision log did not reach the disk"
                            + (failure == null ? "" : ": " + failure));
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

    public Path currentFile() {
        return current;
    }

    public Path directory() {
        return dir;
    }

    /** The last write error, if the disk refused a write (reported by /ready and the logs). */
    public IOException failure() {
        return failure;
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
                    forceIfDue(false);
                    continue;
                }
                batch.clear();
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH);
                stop = batch.remove(POISON);
                write(batch);
                forceIfDue(stop);
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
                write(rest);
                channel.force(true);
                synchronized (forcedLock) {
                    forced = written.get();
                    forcedLock.notifyAll();
                }
                channel.close();
            } catch (IOException e) {
                LOG.error("decision log could not be closed cleanly: {}", e.toString());
            }
            stopped.countDown();
        }
    }

    private void write(List<byte[]> batch) {
        if (batch.isEmpty()) {
            return;
        }
        int size = 0;
        for (byte[] b : batch) {
            size += b.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size);
        batch.forEach(buf::put);
        buf.flip();
        try {
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            currentBytes += size;
            written.addAndGet(batch.size());
            if (currentBytes >= ROLL_BYTES) {
                channel.force(true);
                channel.close();
                compressor.submit(current);
                roll();
            }
        } catch (IOException e) {
            failure = e;
            LOG.error("decision log write failed ({} records): {}", batch.size(), e.toString());
        }
    }

    private void forceIfDue(boolean always) {
        long now = System.nanoTime();
        boolean due = forceRequested || switch (fsync) {
            case ALWAYS -> true;
            case INTERVAL -> now - lastForce >= TimeUnit.SECONDS.toNanos(1);
            case NEVER -> false;
        };
        if (due || always) {
            try {
                forceRequested = false;
                channel.force(false);
                lastForce = now;
                synchronized (forcedLock) {
                    forced = written.get();
                    forcedLock.notifyAll();
                }
            } catch (IOException e) {
                failure = e;
                LOG.error("decision log fsync failed: {}", e.toString());
            }
        }
    }

    private void roll() throws IOException {
        sequence++;
        current = dir.resolve("decisions-" + FILE_TIME.format(java.time.Instant.now()) + "-" + ProcessHandle.current().pid()
                + "-" + sequence + ".jsonl");
        channel = FileChannel.open(current, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        currentBytes = Files.size(current);
    }
}
