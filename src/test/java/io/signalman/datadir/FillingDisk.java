package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A disk that fills up on demand: while {@link #full} is set, each write takes half of what it
 * is given (as a real file system does when it runs out mid-write) and then fails with ENOSPC.
 * It counts the forces it was asked for, per file name prefix, so a test can see that a policy
 * that promises a force really asks for one.
 */
public final class FillingDisk implements Disk {

    public volatile boolean full;
    public final AtomicInteger refused = new AtomicInteger();
    public final AtomicInteger forces = new AtomicInteger();

    @Override
    public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
        if (full) {
            ByteBuffer half = bytes.slice();
            half.limit(Math.max(1, bytes.remaining() / 2));
            Disk.REAL.write(file, channel, half);
            refused.incrementAndGet();
            throw new IOException("No space left on device");
        }
        Disk.REAL.write(file, channel, bytes);
    }

    @Override
    public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
        forces.incrementAndGet();
        Disk.REAL.force(file, channel, metadata);
    }
}
