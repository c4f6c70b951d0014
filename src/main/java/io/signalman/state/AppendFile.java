package io.signalman.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file that state appends JSON lines to (the state journal, the idempotency answers). A
 * {@code FileChannel} is closed by an interrupt of whichever thread is using it (a worker
 * interrupted while Vert.x stops, say); this file then reopens itself before the next write or
 * force, so one interrupted caller fails alone instead of every later change. Forcing a new
 * channel of the same file forces what the closed one wrote: fsync is per file. Not thread-safe:
 * its owner's lock orders the calls.
 */
final class AppendFile {

    private final Path path;
    private FileChannel channel;

    AppendFile(Path path) throws IOException {
        this.path = path;
        this.channel = open(path);
    }

    Path path() {
        return path;
    }

    /** Appends one line (a newline is added); forced before returning when {@code force}. */
    void appendLine(byte[] json, boolean force) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(json.length + 1).put(json).put((byte) '\n').flip();
        reopenIfClosed();
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
        if (force) {
            channel.force(false);
        }
    }

    void force(boolean metadata) throws IOException {
        reopenIfClosed();
        channel.force(metadata);
    }

    /** Forces what was written, then closes. */
    void close() throws IOException {
        force(true);
        channel.close();
    }

    private void reopenIfClosed() throws IOException {
        if (!channel.isOpen()) {
            channel = open(path);
        }
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
}
