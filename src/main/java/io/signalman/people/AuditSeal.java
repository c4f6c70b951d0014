package io.signalman.people;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How a keyed audit entry carries its MAC: as its last field, {@code ...,"mac":"hmac-sha256:<hex>"}},
 * over the entry's bytes without that field (which hold {@code prev} and the key's id). Like the
 * line's checksum ({@link io.signalman.datadir.RecordLine}), it is taken off by position, so the
 * bytes the MAC covers are exactly the bytes written, never a re-serialisation of parsed JSON.
 * An entry's chain value, what the next entry's {@code prev} holds, is its MAC when keyed, else
 * the SHA-256 of its bytes (an unkeyed entry, as written before keys existed).
 */
final class AuditSeal {

    private static final String SCHEME = "hmac-sha256:";
    private static final byte[] START = ",\"mac\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PREFIX = (",\"mac\":\"" + SCHEME).getBytes(StandardCharsets.US_ASCII);
    private static final int HEX = 64;
    /** {@code ,"mac":"hmac-sha256:} + 64 hex digits + {@code "}}. */
    private static final int SUFFIX = PREFIX.length + HEX + 2;

    private AuditSeal() {
    }

    /** {@code entry} (a JSON object without a {@code mac} field) with its MAC under {@code key} as its last field. */
    static byte[] seal(byte[] entry, AuditKey key) {
        byte[] mac = key.mac(entry).getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(entry, entry.length - 1 + START.length + mac.length + 2);
        int at = entry.length - 1;
        System.arraycopy(START, 0, out, at, START.length);
        at += START.length;
        System.arraycopy(mac, 0, out, at, mac.length);
        at += mac.length;
        out[at++] = '"';
        out[at] = '}';
        return out;
    }

    /** The MAC an entry carries as its last field ({@code hmac-sha256:<hex>}), or null when it carries none. */
    static String mac(byte[] entry) {
        int n = entry.length;
        if (n < SUFFIX + 2 || entry[n - 1] != '}' || entry[n - 2] != '"') {
            return null;
        }
        int at = n - SUFFIX;
        for (int i = 0; i < PREFIX.length; i++) {
            if (entry[at + i] != PREFIX[i]) {
                return null;
            }
        }
        return new String(entry, at + START.length, SCHEME.length() + HEX, StandardCharsets.US_ASCII);
    }

    /** The bytes a keyed entry's MAC covers: the entry without its {@code mac} field. */
    static byte[] body(byte[] entry) {
        byte[] out = Arrays.copyOf(entry, entry.length - SUFFIX + 1);
        out[out.length - 1] = '}';
        return out;
    }

    /** What the next entry's {@code prev} holds: the MAC of a keyed entry, the SHA-256 of an unkeyed one. */
    static String link(byte[] entry) {
        String mac = mac(entry);
        return mac != null ? mac : AuditLog.hash(entry);
    }
}
