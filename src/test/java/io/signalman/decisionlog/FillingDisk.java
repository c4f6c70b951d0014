package io.signalman.decisionlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A disk that fills up on demand: while {@link #full} is set, each write takes half of what it
 * is given (as a real file system does when it runs out mid-write) and then fails with ENOSPC.
 */
public final class FillingDisk implements Disk {

    public volatile boolean full;
    public final AtomicInteger refused = new AtomicInteger();

    @Override
    public void write(FileChannel channel, ByteBuffer bytes) throws IOException {
        if (full) {
            ByteBuffer half = bytes.slice();
            half.limit(Math.max(1, bytes.remaining() / 2));
            Disk.REAL.write(channel, half);
            refused.incrementAndGet();
            throw new IOException("No space left on device");
        }
        Disk.REAL.write(channel, bytes);
    }
}
