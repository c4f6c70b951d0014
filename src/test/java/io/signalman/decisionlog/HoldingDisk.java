package io.signalman.decisionlog;

import io.signalman.datadir.Disk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** The real disk, except that every write waits until {@link #release()}; it counts the writes done. */
final class HoldingDisk implements Disk {

    final AtomicBoolean holding = new AtomicBoolean();
    final AtomicInteger written = new AtomicInteger();
    private final CountDownLatch released = new CountDownLatch(1);

    @Override
    public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
        holding.set(true);
        try {
            released.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while held", e);
        }
        Disk.REAL.write(file, channel, bytes);
        written.incrementAndGet();
    }

    @Override
    public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
        Disk.REAL.force(file, channel, metadata);
    }

    void release() {
        released.countDown();
    }
}
