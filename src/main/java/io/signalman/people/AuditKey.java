package io.signalman.people;

import io.signalman.datadir.LogHead;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The audit log's key ({@code --audit-key-file}): each entry written with it carries an
 * HMAC-SHA256 of itself, so that an entry edited, added or re-sealed without the key is caught,
 * where an unkeyed SHA-256 chain can be recomputed by anyone who can write the file. It is kept
 * outside the data directory, readable by its owner alone, so that whoever can rewrite the data
 * cannot also read the key from beside it. Its {@link #id()} (an HMAC of a fixed text, which tells
 * nothing of the key) is written into the log, so that a verify with the wrong key says so.
 */
public final class AuditKey {

    public static final int MIN_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private final SecretKeySpec key;
    private final String id;

    private AuditKey(byte[] bytes) {
        this.key = new SecretKeySpec(bytes, ALGORITHM);
        this.id = hex(raw("signalman audit key id".getBytes(StandardCharsets.US_ASCII))).substring(0, 16);
    }

    /** A key of these bytes (at least {@link #MIN_BYTES}). */
    public static AuditKey of(byte[] bytes) {
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("the audit key is " + bytes.length + " bytes; it must be at least " + MIN_BYTES);
        }
        return new AuditKey(bytes.clone());
    }

    /**
     * Reads the key in {@code file}: its bytes, a final newline aside (so that {@code openssl rand
     * -hex 32 > FILE} and an editor's newline give the same key). Refuses, saying why, a file
     * inside {@code data}, one that group or others may read or write, and a key under 32 bytes.
     */
    public static AuditKey load(Path file, Path data) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("the audit key file " + file + " does not exist or is not a file");
        }
        try {
            Path real = file.toRealPath();
            if (real.startsWith(real(data))) {
                throw new IllegalArgumentException("the audit key file " + file + " is inside the data directory " + data
                        + ": whoever can rewrite the audit log could read its key there; keep it elsewhere");
            }
            PosixFileAttributeView posix = Files.getFileAttributeView(real, PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (posix != null) {
                Set<PosixFilePermission> open = EnumSet.copyOf(posix.readAttributes().permissions());
                open.retainAll(OTHERS);
                if (!open.isEmpty()) {
                    throw new IllegalArgumentException("the audit key file " + file + " may be read or written by its group "
                            + "or others (" + open + "): chmod 600 " + file);
                }
            }
            byte[] b = Files.readAllBytes(real);
            int n = b.length;
            if (n > 0 && b[n - 1] == '\n') {
                n--;
                if (n > 0 && b[n - 1] == '\r') {
                    n--;
                }
            }
            if (n < MIN_BYTES) {
                throw new IllegalArgumentException("the audit key in " + file + " is " + n + " bytes; it must be at least "
                        + MIN_BYTES + " (head -c 32 /dev/urandom > FILE, or openssl rand -hex 32 > FILE)");
            }
            return new AuditKey(Arrays.copyOf(b, n));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the audit key file " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code dir} with every link resolved, as far as it exists (a data directory a first start will create). */
    private static Path real(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing == null ? abs : existing.toRealPath().resolve(existing.relativize(abs));
    }

    /** What the log records of the key: enough to tell two keys apart, nothing to find either. */
    public String id() {
        return id;
    }

    /** The HMAC-SHA256 of {@code bytes}, as a chain value: {@code hmac-sha256:<hex>}. */
    public String mac(byte[] bytes) {
        return "hmac-sha256:" + hex(raw(bytes));
    }

    /** The MAC of the manifest's record of a log: bound to the data directory, the count and the head. */
    String mac(String dataId, String log, LogHead head) {
        return mac(("signalman log head\n" + dataId + "\n" + log + "\n" + head.entries() + "\n" + head.head() + "\n" + head.key())
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The record of {@code log} with {@code entries} entries and head {@code head}, keyed with this key. */
    LogHead head(String dataId, String log, long entries, String head) {
        LogHead h = new LogHead(entries, head, id, null);
        return new LogHead(entries, head, id, mac(dataId, log, h));
    }

    private byte[] raw(byte[] bytes) {
        try {
            Mac m = Mac.getInstance(ALGORITHM);
            m.init(key);
            return m.doFinal(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no HMAC-SHA256", e);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** Never the key. */
    @Override
    public String toString() {
        return "audit-key " + id;
    }
}
