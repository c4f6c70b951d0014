package io.signalman.datadir;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of a stream as bytes, each with its byte offset and number, and whether it ended in
 * a newline (a last line without one is what a torn write leaves). Bytes, not text: a line's
 * checksum ({@link RecordLine}) is over its bytes as written.
 */
public final class LineReader implements AutoCloseable {

    private final InputStream in;
    private final byte[] chunk = new byte[1 << 16];
    private int pos;
    private int limit;
    private boolean eof;
    private byte[] line = new byte[8192];
    private int length;
    private long offset;
    private long nextOffset;
    private long number;
    private boolean terminated;

    public LineReader(InputStream in) {
        this.in = in;
    }

    /** Advances to the next line; false at the end. */
    public boolean next() throws IOException {
        length = 0;
        offset = nextOffset;
        while (true) {
            if (pos == limit) {
                if (eof || (limit = in.read(chunk)) <= 0) {
                    eof = true;
                    limit = 0;
                    pos = 0;
                    if (length == 0) {
                        return false;
                    }
                    number++;
                    terminated = false;
                    nextOffset = offset + length;
                    return true;
                }
                pos = 0;
            }
            int nl = pos;
            while (nl < limit && chunk[nl] != '\n') {
                nl++;
            }
            append(nl - pos);
            if (nl < limit) {
                pos = nl + 1;
                number++;
                terminated = true;
                nextOffset = offset + length + 1;
                return true;
            }
            pos = limit;
        }
    }

    private void append(int n) {
        if (length + n > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, length + n));
        }
        System.arraycopy(chunk, pos, line, length, n);
        length += n;
    }

    /** The current line's bytes (valid up to {@link #length()}, until the next call). */
    public byte[] bytes() {
        return line;
    }

    public int length() {
        return length;
    }

    /** The current line's own bytes, copied. */
    public byte[] copy() {
        return Arrays.copyOf(line, length);
    }

    /** The byte offset where the current line starts. */
    public long offset() {
        return offset;
    }

    /** The current line's number (1, 2, ...). */
    public long number() {
        return number;
    }

    /** Whether the current line ended in a newline. */
    public boolean terminated() {
        return terminated;
    }

    /** Whether the current line contains {@code needle}. */
    public boolean contains(byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (line[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** The index of the first newline in {@code b[from, to)}, or -1 when there is none. */
    public static int newline(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
