package io.signalman.datadir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Faults a test asks a real {@code signalman serve} process for, with system properties (set
 * through {@code SIGNALMAN_JAVA_OPTS}); without them the disk is the real one, untouched. Each is
 * controlled by a file the test creates and removes, so that it starts and ends at the moment the
 * test chooses:
 * <ul>
 *   <li>{@code -Dsignalman.test.disk-full-while=FILE}: while FILE exists, every data write takes
 *       half its bytes and fails with "No space left on device", as a full file system does. For
 *       machines where a test cannot mount a small tmpfs.</li>
 *   <li>{@code -Dsignalman.test.hold-writes=PREFIX} with {@code -Dsignalman.test.hold-while=FILE}:
 *       while FILE exists, a write to a file whose name starts with PREFIX waits, after printing
 *       {@code signalman test seam: holding a write to NAME} once: the test then kills the process
 *       at exactly that point (between a change's write and its answer's, say).</li>
 * </ul>
 * It holds the real disk and each fault's controls, null for a fault not asked for.
 */
record TestSeams(Disk real, Path fullWhile, String holdPrefix, Path holdWhile) implements Disk {

    static final String FULL_WHILE = "signalman.test.disk-full-while";
    static final String HOLD_WRITES = "signalman.test.hold-writes";
    static final String HOLD_WHILE = "signalman.test.hold-while";

    static Disk wrap(Disk real, Properties p) {
        String full = p.getProperty(FULL_WHILE);
        String prefix = p.getProperty(HOLD_WRITES);
        String hold = p.getProperty(HOLD_WHILE);
        if (full == null && (prefix == null || hold == null)) {
            return real;
        }
        return new TestSeams(real, full == null ? null : Path.of(full), prefix, hold == null ? null : Path.of(hold));
    }

    @Override
    public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
        if (holdPrefix != null && file.getFileName().toString().startsWith(holdPrefix) && Files.exists(holdWhile)) {
            System.err.println("signalman test seam: holding a write to " + file.getFileName());
            System.err.flush();
            while (Files.exists(holdWhile)) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        if (fullWhile != null && Files.exists(fullWhile)) {
            ByteBuffer half = bytes.slice();
            half.limit(Math.max(1, bytes.remaining() / 2));
            real.write(file, channel, half);
            throw new IOException("No space left on device");
        }
        real.write(file, channel, bytes);
    }

    @Override
    public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
        real.force(file, channel, metadata);
    }
}
