package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the data directory takes writes: one per server, shared by every writer (the decision
 * log, the state journal and snapshots, the idempotency answers). The first write the disk refuses
 * starts an <em>outage</em>: every change is refused before it is made ({@link #ensureWritable},
 * 503 {@code storage_unavailable}), the condition is logged once, then once per
 * {@link #LOG_EVERY} with the count of refusals while it lasts (never once per request), and a
 * probe thread writes and forces a small file beside the one that failed until the disk takes it;
 * then service resumes by itself and the recovery is logged.
 */
public final class Storage {

    private static final Logger LOG = LoggerFactory.getLogger(Storage.class);
    static final Duration LOG_EVERY = Duration.ofSeconds(10);
    static final long PROBE_MILLIS = 200;
    /** A probe writes this much: a disk with less room than that is still full for a batch of records. */
    static final int PROBE_BYTES = 64 * 1024;

    /** What failed, how, and since when ({@link System#nanoTime}). */
    private record Outage(Path file, IOException error, long since) {
    }

    private final Disk disk;
    private volatile Outage outage;
    private final AtomicLong outages = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private Thread prober;

    public Storage(Disk disk) {
        this.disk = disk;
    }

    /** Refuses (throws) while the disk refuses writes: nothing is changed that cannot be written. */
    public void ensureWritable() {
        Outage o = outage;
        if (o != null) {
            refused.incrementAndGet();
            throw unavailable(o);
        }
    }

    /** The exception a writer throws for a write of its own the disk refused. */
    public StorageUnavailable refuse() {
        Outage o = outage;
        refused.incrementAndGet();
        return o == null ? new StorageUnavailable("the data directory refused a write; nothing was changed; retry after the "
                + "Retry-After delay") : unavailable(o);
    }

    /** A writer reports a write (or force) the disk refused: starts an outage if none runs. */
    public synchronized void failed(Path file, IOException e) {
        if (outage != null) {
            return;
        }
        outage = new Outage(file, e, System.nanoTime());
        outages.incrementAndGet();
        LOG.error("cannot write {}: {}; refusing every change (503 storage_unavailable) until the disk takes writes again",
                file, e.toString());
        if (prober == null || !prober.isAlive()) {
            prober = new Thread(this::probe, "signalman-storage-probe");
            prober.setDaemon(true);
            prober.start();
        }
    }

    /** False during an outage (reported by {@code /ready} and {@code /metrics}). */
    public boolean available() {
        return outage == null;
    }

    /** The error the disk gave, during an outage; null otherwise. */
    public IOException failure() {
        Outage o = outage;
        return o == null ? null : o.error();
    }

    /** The file whose write failed, during an outage; null otherwise. */
    public Path failedFile() {
        Outage o = outage;
        return o == null ? null : o.file();
    }

    /** Outages since start. */
    public long outages() {
        return outages.get();
    }

    /** Changes refused because of an outage since start. */
    public long refused() {
        return refused.get();
    }

    private static StorageUnavailable unavailable(Outage o) {
        return new StorageUnavailable("the data directory cannot take writes (" + o.file().getFileName() + ": "
                + o.error().getMessage() + "); nothing was changed; retry after the Retry-After delay");
    }

    /** The probe thread: until a probe write succeeds, then ends the outage. */
    private void probe() {
        long loggedAt = System.nanoTime();
        long refusedAtStart = refused.get();
        long refusedAtLog = refusedAtStart;
        while (true) {
            Outage o = outage;
            if (o == null) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PROBE_MILLIS));
            if (writable(o.file().toAbsolutePath().getParent())) {
                synchronized (this) {
                    outage = null;
                }
                LOG.warn("the data directory takes writes again after {} s ({} changes refused meanwhile); serving",
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - o.since()), refused.get() - refusedAtStart);
                return;
            }
            if (System.nanoTime() - loggedAt >= LOG_EVERY.toNanos()) {
                LOG.error("still cannot write {} ({}); {} changes refused in the last {} s", o.file(), o.error().getMessage(),
                        refused.get() - refusedAtLog, LOG_EVERY.toSeconds());
                loggedAt = System.nanoTime();
                refusedAtLog = refused.get();
            }
        }
    }

    /** Writes and forces {@link #PROBE_BYTES} in {@code dir} through the disk, then removes them. */
    private boolean writable(Path dir) {
        Path probe = dir.resolve(".signalman-probe");
        try {
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                disk.write(probe, ch, ByteBuffer.allocate(PROBE_BYTES));
                disk.force(probe, ch, false);
            }
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                // a probe left behind is harmless and overwritten by the next one
            }
        }
    }
}
