package io.signalman.datadir;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * One record of a file Signalman writes: a JSON object on one line, sealed with a CRC32C of
 * itself as its last field, {@code {...,"crc32c":"1a2b3c4d"}}. The checksum covers the line as it
 * would be without that field (the bytes before {@code ,"crc32c"} and the closing brace), so a
 * reader checks a line without parsing it, and the field is one that replay and every other
 * reader of the JSON ignores: the decision log stays the replay and golden-history format.
 * A line without the field is <em>unsealed</em>: the golden history, and files written before
 * checksums (a data directory of format 1).
 */
public final class RecordLine {

    /** The field's name, as it appears in the JSON. */
    public static final String FIELD = "crc32c";
    private static final byte[] PREFIX = (",\"" + FIELD + "\":\"").getBytes(StandardCharsets.US_ASCII);
    /** {@code ,"crc32c":"} + 8 hex digits + {@code "}}. */
    static final int SUFFIX = PREFIX.length + 8 + 2;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** What a line is, read back. */
    public enum Check {
        /** Carries a checksum that matches. */
        SEALED,
        /** Carries no checksum (golden history, format-1 files): only parsing can judge it. */
        UNSEALED,
        /** Carries a checksum that does not match, or is not a JSON object line at all. */
        CORRUPT
    }

    private RecordLine() {
    }

    /** {@code json} (one JSON object, no newline) sealed, with the newline that ends it. */
    public static byte[] seal(byte[] json) {
        int n = json.length;
        if (n < 3 || json[0] != '{' || json[n - 1] != '}') {
            throw new IllegalArgumentException("a record is a non-empty JSON object");
        }
        CRC32C crc = new CRC32C();
        crc.update(json, 0, n);
        byte[] out = new byte[n - 1 + SUFFIX + 1];
        System.arraycopy(json, 0, out, 0, n - 1);
        int at = n - 1;
        System.arraycopy(PREFIX, 0, out, at, PREFIX.length);
        at += PREFIX.length;
        hex((int) crc.getValue(), out, at);
        at += 8;
        out[at++] = '"';
        out[at++] = '}';
        out[at] = '\n';
        return out;
    }

    /** Judges one line ({@code len} bytes from {@code off}, without its newline). */
    public static Check check(byte[] b, int off, int len) {
        if (len < 2 || b[off] != '{' || b[off + len - 1] != '}') {
            return Check.CORRUPT;
        }
        if (!sealed(b, off, len)) {
            return Check.UNSEALED;
        }
        int body = len - SUFFIX;
        CRC32C crc = new CRC32C();
        crc.update(b, off, body);
        crc.update('}');
        int expected = (int) crc.getValue();
        byte[] got = new byte[8];
        hex(expected, got, 0);
        for (int i = 0; i < 8; i++) {
            if (b[off + body + PREFIX.length + i] != got[i]) {
                return Check.CORRUPT;
            }
        }
        return Check.SEALED;
    }

    /** Whether the line ends in the checksum field (whatever its value). */
    public static boolean sealed(byte[] b, int off, int len) {
        if (len < SUFFIX + 2 || b[off + len - 1] != '}' || b[off + len - 2] != '"') {
            return false;
        }
        int at = off + len - SUFFIX;
        for (int i = 0; i < PREFIX.length; i++) {
            if (b[at + i] != PREFIX[i]) {
                return false;
            }
        }
        return true;
    }

    /** The same line with its checksum field taken off (for a writer that changes a sealed record and seals it again). */
    public static byte[] unseal(byte[] b, int off, int len) {
        if (!sealed(b, off, len)) {
            byte[] out = new byte[len];
            System.arraycopy(b, off, out, 0, len);
            return out;
        }
        byte[] out = new byte[len - SUFFIX + 1];
        System.arraycopy(b, off, out, 0, len - SUFFIX);
        out[out.length - 1] = '}';
        return out;
    }

    private static void hex(int v, byte[] out, int at) {
        for (int i = 7; i >= 0; i--) {
            out[at + i] = HEX[v & 0xf];
            v >>>= 4;
        }
    }
}
