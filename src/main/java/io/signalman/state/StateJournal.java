package io.signalman.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The state changes that are not decisions (a create, a restore, new user input, an expiry),
 * appended as {@link StateLine}s to {@code journal-N.jsonl}. A write happens before the change
 * is visible and, with {@code --fsync always}, is forced before the client hears of it; with
 * {@code interval} a timer forces it every second, as the decision log does. Rolled at each
 * snapshot. Writes are synchronous and rare next to decisions; the lock orders them.
 */
final class StateJournal implements AutoCloseable {

    private final FsyncPolicy fsync;
    private FileChannel channel;
    private boolean dirty;

    StateJournal(Path file, FsyncPolicy fsync) {
        this.fsync = fsync;
        this.channel = open(file);
    }

    synchronized void append(ObjectNode line) {
        byte[] json = Json.bytes(line);
        ByteBuffer buf = ByteBuffer.allocate(json.length + 1).put(json).put((byte) '\n').flip();
        try {
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            if (fsync == FsyncPolicy.ALWAYS) {
                channel.force(false);
            } else {
                dirty = true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the state journal", e);
        }
    }

    /** Forces what was written (the interval policy's timer, and before a roll or close). */
    synchronized void force() {
        if (!dirty || fsync == FsyncPolicy.NEVER) {
            return;
        }
        try {
            channel.force(false);
            dirty = false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the state journal", e);
        }
    }

    /** Continues in {@code next}; the file written so far is forced and closed. */
    synchronized void roll(Path next) {
        dirty = true;
        force();
        closeChannel();
        channel = open(next);
    }

    @Override
    public synchronized void close() {
        dirty = true;
        force();
        closeChannel();
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the state journal", e);
        }
    }

    private static FileChannel open(Path file) {
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the state journal " + file, e);
        }
    }
}
