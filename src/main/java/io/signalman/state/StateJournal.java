package io.signalman.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.Writing;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The state changes that are not decisions (a create, a restore, new user input, an expiry),
 * appended as sealed {@link StateLine}s to {@code journal-N.jsonl} ({@link RecordFile}: a torn
 * tail is cut back when it opens, a write the disk refuses is cut back at once and reported as an
 * outage). A line is written before its change is visible and, with {@code --fsync always}, forced
 * before the client hears of it; with {@code interval} a timer forces it every second, as the
 * decision log does. Rolled at each snapshot. Writes are synchronous and rare next to decisions;
 * the lock orders them.
 */
final class StateJournal implements AutoCloseable {

    private final FsyncPolicy fsync;
    private final Writing writing;
    private RecordFile file;

    StateJournal(Path file, FsyncPolicy fsync, Writing writing) {
        this.fsync = fsync;
        this.writing = writing;
        this.file = open(file, writing, true);
    }

    /**
     * Appends one change.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refuses it (nothing is written)
     */
    synchronized void append(ObjectNode line) {
        file.append(Json.bytes(line), fsync == FsyncPolicy.ALWAYS);
    }

    /** Forces what was written (the interval policy's timer, and before a roll or close). */
    synchronized void force() {
        if (fsync == FsyncPolicy.NEVER) {
            return;
        }
        try {
            file.force();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force the state journal " + file.path(), e);
        }
    }

    /** Continues in {@code next} (registered before it is created); the file written so far is forced and closed. */
    synchronized void roll(Path next) {
        closeFile();
        file = open(next, writing, false);
    }

    @Override
    public synchronized void close() {
        closeFile();
    }

    private void closeFile() {
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the state journal " + file.path(), e);
        }
    }

    /** {@code existing}: the journal the last run wrote (judged, its torn tail cut) rather than a new one. */
    private static RecordFile open(Path file, Writing writing, boolean existing) {
        try {
            if (!existing || !java.nio.file.Files.exists(file)) {
                writing.registry().adding(file);
            }
            return RecordFile.open(file, writing.disk(), writing.storage(), writing.legacy().test(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the state journal " + file, e);
        }
    }
}
