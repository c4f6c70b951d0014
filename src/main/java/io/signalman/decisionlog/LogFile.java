package io.signalman.decisionlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * The decision log's file, as its writer thread sees it: the one being written, its length in
 * whole records, and when to roll. A write that fails part-way leaves the file longer than its
 * whole records; the next attempt cuts it back first, so a file never keeps a broken line. A
 * rolled file is forced, closed and handed to the {@link RollCompressor}. Only the writer thread
 * calls it (the current path is also read by others, hence volatile).
 */
final class LogFile {

    private final Path dir;
    private final Disk disk;
    private final RollCompressor compressor;
    private final Instant started = Instant.now();
    private final long rollBytes;
    private volatile Path current;
    private FileChannel channel;
    /** The file's length in whole records: where a partial write is cut back to. */
    private long wholeBytes;
    /** A write failed: the file may hold part of a batch past {@link #wholeBytes}. */
    private boolean dirty;
    /** Records written since the last force. */
    private boolean unforced;
    private int sequence;

    LogFile(Path dir, Disk disk, RollCompressor compressor, long rollBytes) throws IOException {
        this.dir = dir;
        this.disk = disk;
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

    /** One attempt at a batch: cut back any partial write of the last attempt, roll when due, write. */
    void write(List<byte[]> batch) throws IOException {
        if (dirty) {
            channel.truncate(wholeBytes);
            dirty = false;
        }
        if (wholeBytes >= rollBytes || channel == null) {
            if (channel != null) {
                channel.force(true);
                channel.close();
                channel = null;
                compressor.submit(current);
            }
            open();
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
            disk.write(channel, buf);
        } catch (IOException e) {
            dirty = true;
            throw e;
        }
        wholeBytes += size;
        unforced = true;
    }

    /** Forces what was written to the disk. */
    void force() throws IOException {
        channel.force(false);
        unforced = false;
    }

    void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }

    private void open() throws IOException {
        sequence++;
        current = dir.resolve(LogFiles.name(started, ProcessHandle.current().pid(), sequence));
        channel = FileChannel.open(current, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        wholeBytes = Files.size(current);
    }
}
