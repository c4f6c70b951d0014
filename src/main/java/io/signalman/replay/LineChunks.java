package io.signalman.replay;

import io.signalman.datadir.LineReader;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * Cuts an archive file into chunks of whole lines, without decoding them: the reading thread only
 * finds newlines, and the replaying threads parse. Memory is bounded by the chunk size (a line
 * longer than {@link #MAX_LINE} is skipped and reported), never by the file's size.
 */
final class LineChunks {

    /**
     * NOTE(perf): 256 KiB, about 230 decision records, stays under half of G1's smallest region
     * (1 MiB), so a chunk is an ordinary allocation rather than a humongous one even at -Xmx128m.
     */
    static final int CHUNK = 256 * 1024;
    static final int MAX_LINE = 16 * 1024 * 1024;

    /** Lines of one file: {@code count} lines, the i-th at {@code offsets[i]} for {@code lengths[i]} bytes. */
    record Chunk(Archive.ArchiveFile file, byte[] bytes, int[] lines, int[] offsets, int[] lengths, int count,
                 boolean endsTorn) {

        /** Whether line i is the file's last line and had no newline (a torn write, if it does not parse). */
        boolean unterminated(int i) {
            return endsTorn && i == count - 1;
        }
    }

    /** Receives each chunk, in file order. */
    interface ChunkSink {
        void accept(Chunk chunk) throws InterruptedException;
    }

    /** Receives a problem found while cutting (a line too long, a compressed file cut short). */
    interface ProblemSink {
        void problem(int line, String message, boolean fatal);
    }

    /** Receives one line (for callers that read small files whole). */
    interface LineSink {
        void line(int line, byte[] bytes, int offset, int length, boolean unterminated);
    }

    private LineChunks() {
    }

    /** The file's bytes, through gzip when it is compressed; a gzip cut short ends early rather than failing. */
    static InputStream open(Archive.ArchiveFile file, InputStream raw) throws IOException {
        if (!file.compressed()) {
            return raw;
        }
        try {
            return new Truncatable(new GZIPInputStream(raw, 64 * 1024));
        } catch (EOFException e) {
            // Killed before the gzip header was whole: an empty, torn file.
            raw.close();
            Truncatable empty = new Truncatable(InputStream.nullInputStream());
            empty.truncated = true;
            return empty;
        }
    }

    static void lines(Archive.ArchiveFile file, InputStream in, LineSink sink, java.util.function.Consumer<String> problems)
            throws IOException {
        try {
            cut(file, in, c -> {
                for (int i = 0; i < c.count(); i++) {
                    sink.line(c.lines()[i], c.bytes(), c.offsets()[i], c.lengths()[i], c.unterminated(i));
                }
            }, (line, message, fatal) -> problems.accept(file.path() + ":" + line + ": " + message));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * Reads {@code in} to its end and hands every non-blank line on, in chunks of at most
     * {@link #CHUNK} bytes (or one longer line).
     */
    static void cut(Archive.ArchiveFile file, InputStream in, ChunkSink sink, ProblemSink problems)
            throws IOException, InterruptedException {
        byte[] buf = new byte[CHUNK];
        int len = 0;
        int line = 1;
        boolean skipping = false;
        while (true) {
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) {
                break;
            }
            len += n;
            if (len < buf.length) {
                continue;
            }
            if (skipping) {
                int nl = LineReader.newline(buf, 0, len);
                if (nl < 0) {
                    len = 0;
                    continue;
                }
                skipping = false;
                line++;
                System.arraycopy(buf, nl + 1, buf, 0, len - nl - 1);
                len -= nl + 1;
                continue;
            }
            int last = lastIndexOf(buf, len);
            if (last < 0) {
                if (buf.length < MAX_LINE) {
                    buf = Arrays.copyOf(buf, Math.min(MAX_LINE, buf.length * 2));
                } else {
                    problems.problem(line, "unreadable record: a line longer than " + MAX_LINE / (1024 * 1024)
                            + " MiB, skipped", true);
                    skipping = true;
                    len = 0;
                }
                continue;
            }
            byte[] rest = new byte[Math.max(CHUNK, len - last - 1)];
            System.arraycopy(buf, last + 1, rest, 0, len - last - 1);
            line = emit(file, buf, last + 1, line, false, sink);
            len -= last + 1;
            buf = rest;
        }
        if (skipping) {
            return;
        }
        boolean torn = len > 0 && buf[len - 1] != '\n';
        emit(file, buf, len, line, torn, sink);
        if (in instanceof Truncatable t && t.truncated) {
            problems.problem(line, "the compressed file ends early (a torn write): what it holds was read", false);
        }
    }

    /** Hands on the lines of {@code buf[0, len)}; returns the number of the line after them. */
    private static int emit(Archive.ArchiveFile file, byte[] buf, int len, int line, boolean endsTorn, ChunkSink sink)
            throws InterruptedException {
        int lines = 0;
        for (int i = 0; i < len; i++) {
            if (buf[i] == '\n') {
                lines++;
            }
        }
        int capacity = lines + 1;
        int[] numbers = new int[capacity];
        int[] offsets = new int[capacity];
        int[] lengths = new int[capacity];
        int count = 0;
        int start = 0;
        while (start < len) {
            int nl = LineReader.newline(buf, start, len);
            int end = nl < 0 ? len : nl;
            if (!blank(buf, start, end)) {
                numbers[count] = line;
                offsets[count] = start;
                lengths[count] = end - start;
                count++;
            }
            line++;
            start = end + 1;
        }
        if (count > 0) {
            boolean tornLast = endsTorn && offsets[count - 1] + lengths[count - 1] == len;
            sink.accept(new Chunk(file, buf, numbers, offsets, lengths, count, tornLast));
        }
        return line;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    private static int lastIndexOf(byte[] b, int len) {
        for (int i = len - 1; i >= 0; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * A gzip stream whose unexpected end is an end, not an error: a file compressed by a process
     * that was killed is read as far as it goes, and its torn tail is reported like a plain file's.
     */
    private static final class Truncatable extends FilterInputStream {
        boolean truncated;

        Truncatable(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (truncated) {
                return -1;
            }
            try {
                return super.read(b, off, len);
            } catch (EOFException e) {
                truncated = true;
                return -1;
            }
        }
    }
}
