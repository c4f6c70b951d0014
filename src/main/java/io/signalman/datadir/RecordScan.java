package io.signalman.datadir;

import io.signalman.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads a file of {@link RecordLine}s from the start and judges it: how many whole records it
 * holds and where the last one ends; whether it ends in a torn tail (a write cut short by a crash:
 * a last line without its newline, or lines that do not check with nothing whole after them),
 * which a writer cuts back; or whether a record that does not check is followed by whole ones,
 * which is corruption in the middle, never a crash's doing, and is refused. Also the CRC32C of the
 * whole records' bytes, which the manifest keeps for a closed file.
 */
public final class RecordScan {

    /** A record that does not check, and whole records after it: where, and why. */
    public record Corrupt(long offset, long line, String why) {
    }

    /**
     * What a file holds.
     *
     * @param size       its length now
     * @param wholeBytes where its last whole record ends (the length a torn tail is cut back to)
     * @param records    whole records before {@code wholeBytes}
     * @param crc        CRC32C of bytes {@code [0, wholeBytes)}
     * @param corrupt    the first bad record when whole ones follow it (refused), else null
     */
    public record Result(Path file, long size, long wholeBytes, long records, int crc, Corrupt corrupt) {

        /** Bytes after the last whole record that a writer cuts back: a torn tail. */
        public long tornBytes() {
            return corrupt == null ? size - wholeBytes : 0;
        }
    }

    private RecordScan() {
    }

    /**
     * Scans {@code file}. {@code legacy}: the file was written before checksums (format 1), so an
     * unsealed line is whole when it parses as JSON; otherwise every line must be sealed.
     */
    public static Result scan(Path file, boolean legacy) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return scan(file, in, legacy);
        }
    }

    static Result scan(Path file, InputStream in, boolean legacy) throws IOException {
        Scanner s = new Scanner(legacy);
        byte[] chunk = new byte[1 << 16];
        int n;
        while ((n = in.read(chunk)) > 0 && s.corrupt == null) {
            s.feed(chunk, n);
        }
        // A scan stops at the first corruption; the size is then the file's.
        long size = s.corrupt == null ? s.offset + s.lineLen : Files.size(file);
        return new Result(file, size, s.whole, s.records, (int) s.crc.getValue(), s.corrupt);
    }

    /** The line-by-line state of one scan. */
    private static final class Scanner {
        final boolean legacy;
        final CRC32C crc = new CRC32C();
        byte[] line = new byte[8192];
        int lineLen;
        long offset;
        long lineNo;
        long whole;
        long records;
        Corrupt firstBad;
        Corrupt corrupt;

        Scanner(boolean legacy) {
            this.legacy = legacy;
        }

        void feed(byte[] chunk, int n) {
            int pos = 0;
            while (pos < n && corrupt == null) {
                int nl = pos;
                while (nl < n && chunk[nl] != '\n') {
                    nl++;
                }
                append(chunk, pos, nl - pos);
                if (nl == n) {
                    return;
                }
                line(lineLen);
                offset += lineLen + 1;
                lineLen = 0;
                pos = nl + 1;
            }
        }

        void append(byte[] b, int off, int len) {
            if (lineLen + len > line.length) {
                line = Arrays.copyOf(line, Math.max(line.length * 2, lineLen + len));
            }
            System.arraycopy(b, off, line, lineLen, len);
            lineLen += len;
        }

        void line(int len) {
            lineNo++;
            String why = judge(len);
            if (why != null) {
                if (firstBad == null) {
                    firstBad = new Corrupt(offset, lineNo, why);
                }
                return;
            }
            if (firstBad != null) {
                corrupt = firstBad;
                return;
            }
            records++;
            crc.update(line, 0, len);
            crc.update('\n');
            whole = offset + len + 1;
        }

        /** Null when the line is a whole record, else why not. */
        String judge(int len) {
            return switch (RecordLine.check(line, 0, len)) {
                case SEALED -> null;
                case CORRUPT -> RecordLine.sealed(line, 0, len) ? "its checksum does not match its bytes"
                        : "it is not a JSON object on one line";
                case UNSEALED -> legacy && parses(len) ? null : legacy ? "it is not JSON" : "it carries no checksum";
            };
        }

        boolean parses(int len) {
            try {
                return Json.MAPPER.readTree(line, 0, len).isObject();
            } catch (IOException e) {
                return false;
            }
        }
    }
}
