package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One owner per data directory: an exclusive lock on {@code DATA/lock}, holding the owner's pid.
 * The operating system releases it when the process ends, however it ends (kill -9 included), so
 * a stale lock never blocks a start. A second server (or an import) on the same directory is
 * refused, naming the pid that holds it.
 */
public final class DataDirLock implements AutoCloseable {

    public static final String NAME = "lock";

    /** The data directories this process holds (a JVM's file locks do not exclude its own channels). */
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final FileChannel channel;
    private final FileLock lock;
    private final Path key;

    private DataDirLock(FileChannel channel, FileLock lock, Path key) {
        this.channel = channel;
        this.lock = lock;
        this.key = key;
    }

    /** Takes the lock of {@code data} (created if missing), or refuses naming its holder. */
    public static DataDirLock acquire(Path data) throws IOException {
        Files.createDirectories(data);
        Path f = data.resolve(NAME);
        Path key = data.toRealPath();
        // Held by this very process (a test's second server)? Checked before the file is opened:
        // closing any descriptor of it would drop the holder's POSIX lock.
        if (!HELD_HERE.add(key)) {
            throw new DataDirRefused("data directory " + data + " is in use by this process (pid "
                    + ProcessHandle.current().pid() + "): one server owns a data directory");
        }
        FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (IOException | RuntimeException e) {
            HELD_HERE.remove(key);
            ch.close();
            throw e;
        }
        if (lock == null) {
            HELD_HERE.remove(key);
            ch.close();
            throw new DataDirRefused("data directory " + data + " is in use by another Signalman process (pid " + holder(data)
                    + "): one server owns a data directory; stop that one first, or give this one another --data");
        }
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        ch.force(true);
        return new DataDirLock(ch, lock, key);
    }

    /** The pid written in the lock file of {@code data}, or "unknown". */
    public static String holder(Path data) {
        try {
            String s = Files.readString(data.resolve(NAME), StandardCharsets.US_ASCII).strip();
            return s.isEmpty() ? "unknown" : s;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * Whether another process holds the lock of {@code data} now (an offline tool's question).
     * Never call it in a process that holds the lock: closing any descriptor of the file drops a
     * process's POSIX locks on it.
     */
    public static boolean held(Path data) {
        Path f = data.resolve(NAME);
        if (!Files.exists(f)) {
            return false;
        }
        try {
            if (HELD_HERE.contains(data.toRealPath())) {
                return true; // this process holds it: the file must not be opened (see above)
            }
        } catch (IOException e) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // the lock goes with the process anyway
        } finally {
            HELD_HERE.remove(key);
        }
    }
}
