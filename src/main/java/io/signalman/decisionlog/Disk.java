package io.signalman.decisionlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The decision log writer's one contact with the disk: a seam, so that tests can make the disk
 * refuse a write (or take half of it first) exactly as a full file system does.
 */
@FunctionalInterface
public interface Disk {

    /** Writes all of {@code bytes} at the end of {@code channel}, or throws having written part of it. */
    void write(FileChannel channel, ByteBuffer bytes) throws IOException;

    /** The real disk: the kernel may take a buffer in several writes. */
    Disk REAL = (channel, bytes) -> {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    };
}
