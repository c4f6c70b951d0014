package io.signalman.decisionlog;

import io.signalman.datadir.Disk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The real disk, noting for each file how far its last force reached (its size when forced). */
final class ForceWatchingDisk implements Disk {

    private final Map<String, Long> forced = new ConcurrentHashMap<>();

    @Override
    public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
        Disk.REAL.write(file, channel, bytes);
    }

    @Override
    public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
        long size = channel.size();
        Disk.REAL.force(file, channel, metadata);
        forced.merge(file.getFileName().toString(), size, Math::max);
    }

    /** The size {@code file} (a name) had at its furthest force; -1 when never forced. */
    long forcedThrough(String file) {
        return forced.getOrDefault(file, -1L);
    }
}
