package io.signalman.decisionlog;

import io.signalman.datadir.Disk;
import io.signalman.datadir.FileRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The decision log's file, as its writer thread sees it: the one being written, its length in
 * whole records, and when to roll. A write that fails part-way leaves the file longer than its
 * whole records; it is cut back at once (or, if even that fails, before the next write), so a
 * file never keeps a broken line. A rolled file is forced, closed, registered with its length and
 * checksum, and handed to the {@link RollCompressor}. Only the writer thread calls it (the current
 * path is also read by others, hence volatile).
 */
final class LogFile {

    private final Path dir;
    private final Disk disk;
    private final FileRegistry registry;
    private final RollCompressor compressor;
    private final Instant started = Instant.now();
    private final long rollBytes;
    private final CRC32C crc = new CRC32C();
    private volatile Path current;
    private FileChannel channel;
    /** The file's length in whole records: where a partial write is cut back to. */
    private long wholeBytes;
    /** A write failed and could not be cut back yet: the file may hold part of a batch past {@link #wholeBytes}. */
    private boolean dirty;
    /** Records written since the last force. */
    private boolean unforced;
    private int sequence;

    LogFile(Path dir, Disk disk, FileRegistry registry, RollCompressor compressor, long rollBytes) throws IOException {
        this.dir = dir;
        this.disk = disk;
        this.registry = registry;
        this.compressor = compressor;
        this.rollBytes = rollBytes;
        Files.createDirectories(dir);
        open();
    }

    Path current() {
        return current;
    }

    boolean unforced() {
        return unforced;
    }

    /** Where the whole records of the current file end: a batch written next starts here. */
    long wholeBytes() {
        return wholeBytes;
    }

    /**
     * One attempt at a batch: roll when due, write. A batch the disk refuses is cut back out of
     * the file before this throws: it is never written later.
     */
    void write(List<byte[]> batch) throws IOException {
        if (dirty) {
            channel.truncate(wholeBytes);
            dirty = false;
        }
        if (wholeBytes >= rollBytes || channel == null) {
            roll();
        }
        if (batch.isEmpty()) {
            return;
        }
        int size = 0;
        for (byte[] b : batch) {
            size += b.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size);
        batch.forEach(buf::put);
        buf.flip();
        try {
            disk.write(current, channel, buf);
        } catch (IOException e) {
            cutBack();
            throw e;
        }
        wholeBytes += size;
        unforced = true;
        buf.flip();
        crc.update(buf);
    }

    /** Forces what was written to the disk. */
    void force() throws IOException {
        disk.force(current, channel, false);
        unforced = false;
    }

    /**
     * Takes the last batch back out of the file ({@code bytes} long, written but not forced when
     * the force failed under {@code --fsync always}): its records were never acknowledged.
     */
    void takeBack(long bytes) {
        wholeBytes -= bytes;
        unforced = false;
        recount = true; // the running checksum covered the batch: the file's is read again when it closes
        cutBack();
    }

    /** The running checksum does not describe the file (it was taken back, or opened non-empty). */
    private boolean recount;

    /** Forces, closes and registers the current file as complete. */
    void close() throws IOException {
        if (channel != null) {
            disk.force(current, channel, true);
            channel.close();
            channel = null;
            registry.closed(current, wholeBytes, checksum());
        }
    }

    private void roll() throws IOException {
        if (channel != null) {
            Path rolled = current;
            close();
            compressor.submit(rolled);
        }
        open();
    }

    private int checksum() throws IOException {
        if (!recount) {
            return (int) crc.getValue();
        }
        return io.signalman.datadir.RecordScan.scan(current, false).crc();
    }

    private void cutBack() {
        try {
            channel.truncate(wholeBytes);
            dirty = false;
        } catch (IOException e) {
            dirty = true;
        }
    }

    private void open() throws IOException {
        sequence++;
        Path next = dir.resolve(LogFiles.name(started, ProcessHandle.current().pid(), sequence));
        registry.adding(next);
        channel = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        current = next;
        wholeBytes = Files.size(next);
        crc.reset();
        recount = wholeBytes > 0;
    }
}
