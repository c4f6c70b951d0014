package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Every writer's one contact with the disk (the decision log, the state journal, snapshots, the
 * idempotency answers, the activation log): a seam, so that tests can make the disk refuse a
 * write part-way (as a full file system does), hold a write while a process is killed, or see
 * that a force really happened. {@link #configured()} is what a server uses: the real disk, or
 * the test seams a system property asks for ({@link TestSeams}).
 */
public interface Disk {

    /** Writes all of {@code bytes} at the end of {@code channel} (open on {@code file}), or throws having written part of it. */
    void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException;

    /** Forces what was written to {@code channel} to the device ({@code metadata}: the file's size and times too). */
    void force(Path file, FileChannel channel, boolean metadata) throws IOException;

    /** The real disk: the kernel may take a buffer in several writes. */
    Disk REAL = new Disk() {
        @Override
        public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        }

        @Override
        public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
            channel.force(metadata);
        }
    };

    /** The real disk, or the test seams named by system properties (see {@link TestSeams}). */
    static Disk configured() {
        return TestSeams.wrap(REAL, System.getProperties());
    }
}
