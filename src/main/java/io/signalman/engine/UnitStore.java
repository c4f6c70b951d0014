package io.signalman.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiled units kept on disk between processes ({@code serve --compiled-cache DIR}), so that a
 * restart with unchanged rules loads the classes it compiled last time instead of generating and
 * compiling them again (most of a cold start: Drools' code generation and the Java compiler, with
 * a cold JIT, take several seconds per pack). An entry is found by the unit's key, the SHA-256 of
 * everything its build depends on (its rules' text, its package's declarations, the Drools
 * version, the format), so it can only ever stand for the exact sources it was built from.
 *
 * <p>NOTE(security): an entry is class files, which the JVM will run. It is read only through
 * {@link StoredUnitLoader}, whose parent is the {@link RuleClassLoader}: a forged entry can link to
 * the pack's vocabulary, {@code java.lang} and {@code java.util} basics and Drools' runtime, never
 * to files, the network, reflection or the rest of Signalman. The directory must still be writable
 * by the server's user alone (as the data directory is): the README says so. An entry that is
 * torn, corrupt (its SHA-256 does not match) or of another format is ignored and rebuilt.
 */
final class UnitStore {

    private static final Logger LOG = LoggerFactory.getLogger(UnitStore.class);
    private static final int MAGIC = 0x534d5531; // "SMU1"
    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");

    /** A unit read back: its classes by binary name, and which of them are Drools models. */
    record Stored(String key, Map<String, byte[]> classes, List<String> models) {
    }

    private final Path dir;
    private final java.util.concurrent.atomic.AtomicLong loaded = new java.util.concurrent.atomic.AtomicLong();

    UnitStore(Path dir) {
        this.dir = dir;
    }

    /** Units taken from the store instead of compiled, since this store was made. */
    long loaded() {
        return loaded.get();
    }

    void countLoaded() {
        loaded.incrementAndGet();
    }

    Optional<Stored> read(String key) {
        Path file = file(key);
        if (file == null || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            byte[] all = Files.readAllBytes(file);
            if (all.length < 32 || !MessageDigest.isEqual(sha256(all, all.length - 32), java.util.Arrays.copyOfRange(all,
                    all.length - 32, all.length))) {
                LOG.warn("compiled-unit cache: {} is damaged; rebuilding it", file);
                return Optional.empty();
            }
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, 0, all.length - 32));
            if (in.readInt() != MAGIC || !in.readUTF().equals(key)) {
                return Optional.empty();
            }
            List<String> models = new ArrayList<>();
            for (int i = in.readInt(); i > 0; i--) {
                models.add(in.readUTF());
            }
            Map<String, byte[]> classes = new LinkedHashMap<>();
            for (int i = in.readInt(); i > 0; i--) {
                String name = in.readUTF();
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                classes.put(name, bytes);
            }
            return Optional.of(new Stored(key, classes, models));
        } catch (IOException | RuntimeException e) {
            LOG.warn("compiled-unit cache: cannot read {} ({}); rebuilding it", file, e.toString());
            return Optional.empty();
        }
    }

    /** Keeps a unit that built; a failure to write only costs the next start a compile. */
    void write(String key, Map<String, byte[]> classes, List<String> models) {
        Path file = file(key);
        if (file == null) {
            return;
        }
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(buf);
            out.writeInt(MAGIC);
            out.writeUTF(key);
            out.writeInt(models.size());
            for (String m : models) {
                out.writeUTF(m);
            }
            out.writeInt(classes.size());
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                out.writeUTF(c.getKey());
                out.writeInt(c.getValue().length);
                out.write(c.getValue());
            }
            out.flush();
            byte[] body = buf.toByteArray();
            buf.write(sha256(body, body.length));
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, key, ".tmp");
            Files.write(tmp, buf.toByteArray());
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("compiled-unit cache: cannot keep unit {} in {} ({})", key, dir, e.toString());
        }
    }

    /**
     * The right to build unit {@code key}, held by one builder at a time across this process and
     * every other using the same directory: two servers (or a reload and a draft check) starting on
     * the same rules build each unit once, the later one waiting and then reading what the first
     * kept. The wait is bounded: past {@link #CLAIM_WAIT_MILLIS} a builder builds anyway, so a stuck
     * or slow holder costs a compile, never a hang. Close it once the unit is kept (or failed).
     */
    Claim claim(String key) {
        Path file = file(key);
        if (file == null) {
            return Claim.NONE;
        }
        String name = file.toAbsolutePath().toString();
        java.util.concurrent.locks.ReentrantLock local = CLAIMS.computeIfAbsent(name, k -> new java.util.concurrent.locks.ReentrantLock());
        boolean waited = local.isLocked();
        try {
            if (!local.tryLock(CLAIM_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                return new Claim(null, null, null, true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Claim.NONE;
        }
        FileChannel channel = null;
        FileLock lock = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(dir.resolve(key + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            long deadline = System.nanoTime() + CLAIM_WAIT_MILLIS * 1_000_000L;
            // FileChannel.lock() cannot be given a time limit, so another process's claim is polled for.
            while ((lock = channel.tryLock()) == null && System.nanoTime() < deadline) {
                waited = true;
                Thread.sleep(20);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("compiled-unit cache: building {} without a claim ({})", key, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new Claim(local, channel, lock, waited);
    }

    /** How long a builder waits for another building the same unit before building it too. */
    static final long CLAIM_WAIT_MILLIS = 120_000;
    private static final java.util.concurrent.ConcurrentMap<String, java.util.concurrent.locks.ReentrantLock> CLAIMS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A held (or given up) right to build one unit. {@code waited}: another builder held it first,
     * and may have kept the unit meanwhile, so read the store again before building.
     */
    record Claim(java.util.concurrent.locks.ReentrantLock local, FileChannel channel, FileLock lock, boolean waited)
            implements AutoCloseable {

        static final Claim NONE = new Claim(null, null, null, false);

        @Override
        public void close() {
            try {
                if (lock != null) {
                    lock.release();
                }
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException e) {
                LOG.debug("compiled-unit cache: releasing a claim: {}", e.toString());
            } finally {
                if (local != null) {
                    local.unlock();
                }
            }
        }
    }

    private Path file(String key) {
        return KEY.matcher(key).matches() ? dir.resolve(key + ".unit") : null;
    }

    private static byte[] sha256(byte[] b, int length) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(b, 0, length);
            return sha.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
