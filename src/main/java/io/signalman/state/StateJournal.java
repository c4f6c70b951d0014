package io.signalman.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The state changes that are not decisions (a create, a restore, new user input, an expiry),
 * appended as {@link StateLine}s to {@code journal-N.jsonl}. A write happens before the change
 * is visible and, with {@code --fsync always}, is forced before the client hears of it; with
 * {@code interval} a timer forces it every second, as the decision log does. Rolled at each
 * snapshot. Writes are synchronous and rare next to decisions; the lock orders them. An
 * interrupted writer fails alone (see {@link AppendFile}).
 */
final class StateJournal implements AutoCloseable {

    private final FsyncPolicy fsync;
    private AppendFile file;
    private boolean dirty;

    StateJournal(Path file, FsyncPolicy fsync) {
        this.fsync = fsync;
        this.file = open(file);
    }

    synchronized void append(ObjectNode line) {
        try {
            file.appendLine(Json.bytes(line), fsync == FsyncPolicy.ALWAYS);
            dirty = fsync != FsyncPolicy.ALWAYS;
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
            file.force(false);
            dirty = false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the state journal", e);
        }
    }

    /** Continues in {@code next}; the file written so far is forced and closed. */
    synchronized void roll(Path next) {
        closeFile();
        file = open(next);
    }

    @Override
    public synchronized void close() {
        closeFile();
    }

    private void closeFile() {
        try {
            file.close();
            dirty = false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the state journal " + file.path(), e);
        }
    }

    private static AppendFile open(Path file) {
        try {
            return new AppendFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the state journal " + file, e);
        }
    }
}
