package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real disk, except that while {@link #hold} is set, a write to a held file (every file, or
 * those whose name starts with a prefix) waits until {@link #release()}. It says when a write has
 * been held, and counts the writes done to the files it counts.
 */
public final class HoldingDisk implements Disk {

    /** While set, writes to held files wait for {@link #release()}. */
    public final AtomicBoolean hold = new AtomicBoolean();
    /** Set once a write has been held. */
    public final AtomicBoolean holding = new AtomicBoolean();
    /** The writes done to the files counted. */
    public final AtomicInteger written = new AtomicInteger();
    private final String held;
    private final String counted;
    private final CountDownLatch released = new CountDownLatch(1);

    /** Holds every write from the start, and counts them all. */
    public HoldingDisk() {
        this("", "");
        hold.set(true);
    }

    /**
     * Holds writes to the files whose name starts with {@code held} once {@link #hold} is set, and
     * counts the writes to those whose name starts with {@code counted}.
     */
    public HoldingDisk(String held, String counted) {
        this.held = held;
        this.counted = counted;
    }

    @Override
    public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
        String name = file.getFileName().toString();
        if (hold.get() && name.startsWith(held)) {
            holding.set(true);
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while held", e);
            }
        }
        Disk.REAL.write(file, channel, bytes);
        if (name.startsWith(counted)) {
            written.incrementAndGet();
        }
    }

    @Override
    public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
        Disk.REAL.force(file, channel, metadata);
    }

    public void release() {
        released.countDown();
    }
}
