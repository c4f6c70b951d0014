package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file of {@link RecordLine}s that a writer appends to (the state journal, the idempotency
 * answers, the activation log), treated as the decision log treats its own: opening it cuts a torn
 * tail back to the last whole record and refuses corruption in the middle
 * ({@link DataDirRefused}, naming the file and byte offset); a record is sealed with its checksum;
 * a write the disk takes only part of is cut back at once, so no later record is ever glued to a
 * broken one, and the outage is reported to {@link Storage}. Not thread-safe: its owner's lock
 * orders the calls.
 *
 * <p>A {@code FileChannel} is closed by an interrupt of whichever thread is using it (a worker
 * interrupted while Vert.x stops, say); the file then reopens itself before the next write or
 * force, so one interrupted caller fails alone instead of every later change. Forcing a new
 * channel of the same file forces what the closed one wrote: fsync is per file.
 */
public final class RecordFile implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecordFile.class);

    private final Path path;
    private final Disk disk;
    private final Storage storage;
    private FileChannel channel;
    /** Where the last whole record ends: a partial write is cut back to here. */
    private long whole;
    private boolean dirty;
    private boolean unforced;

    private RecordFile(Path path, Disk disk, Storage storage) {
        this.path = path;
        this.disk = disk;
        this.storage = storage;
    }

    /**
     * Opens {@code path} for appending (creating it), after judging what it holds: a torn tail is
     * cut back, corruption in the middle refused. {@code legacy}: written before checksums.
     */
    public static RecordFile open(Path path, Disk disk, Storage storage, boolean legacy) throws IOException {
        RecordFile f = new RecordFile(path, disk, storage);
        if (Files.exists(path)) {
            RecordScan.Result scan = RecordScan.scan(path, legacy);
            if (scan.corrupt() != null) {
                throw corrupt(scan);
            }
            f.whole = scan.wholeBytes();
            if (scan.tornBytes() > 0) {
                try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                    ch.truncate(scan.wholeBytes());
                    ch.force(true);
                }
                LOG.warn("{}: cut a torn last record ({} bytes after byte {}): a write cut short by a crash, never acknowledged",
                        path, scan.tornBytes(), scan.wholeBytes());
            }
        }
        f.channel = open(path);
        return f;
    }

    /** The refusal for a file with a bad record in the middle: what, where, and what to do. */
    public static DataDirRefused corrupt(RecordScan.Result scan) {
        return new DataDirRefused(scan.file() + ": the record at byte " + scan.corrupt().offset() + " (line "
                + scan.corrupt().line() + ") is corrupt (" + scan.corrupt().why() + "), and whole records follow it: this is "
                + "damage in the middle of the file, not a write cut short by a crash. Restore the file from a backup, or "
                + "start with --accept-data-loss to keep the records before it and set the rest aside; "
                + "signalman data verify --data DIR lists every problem");
    }

    public Path path() {
        return path;
    }

    /** Appends one record (a JSON object without newline), forced before returning when {@code force}. */
    public void append(byte[] json, boolean force) {
        byte[] line = RecordLine.seal(json);
        try {
            reopenIfClosed();
            if (dirty) {
                channel.truncate(whole);
                dirty = false;
            }
            dirty = true;
            disk.write(path, channel, ByteBuffer.wrap(line));
            unforced = true;
            if (force) {
                disk.force(path, channel, false);
                unforced = false;
            }
            dirty = false;
        } catch (java.nio.channels.ClosedByInterruptException e) {
            // The caller was interrupted (a worker stopped mid-write), not refused by the disk: it
            // fails alone; a partial line is cut back now or, failing that, before the next write.
            cutBack();
            throw new java.io.UncheckedIOException("interrupted while writing " + path, e);
        } catch (IOException e) {
            cutBack();
            storage.failed(path, e);
            throw storage.refuse();
        }
        whole += line.length;
    }

    /** Forces what was written (a timer's job under {@code --fsync interval}, and before a close). */
    public void force() throws IOException {
        if (!unforced) {
            return;
        }
        reopenIfClosed();
        try {
            disk.force(path, channel, false);
            unforced = false;
        } catch (IOException e) {
            storage.failed(path, e);
            throw e;
        }
    }

    /** Bytes of whole records. */
    public long length() {
        return whole;
    }

    /** Forces what was written, then closes. */
    @Override
    public void close() throws IOException {
        reopenIfClosed();
        disk.force(path, channel, true);
        channel.close();
    }

    /** A write or force the disk refused: the file is cut back to its whole records (now, or before the next write). */
    private void cutBack() {
        try {
            reopenIfClosed();
            channel.truncate(whole);
            dirty = false;
        } catch (IOException e) {
            dirty = true;
        }
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
