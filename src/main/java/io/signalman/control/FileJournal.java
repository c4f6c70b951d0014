package io.signalman.control;

import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A journal in one file of the data directory ({@code users.jsonl}, {@code activations.jsonl}):
 * one sealed JSON line per entry, appended and forced before the append returns, read back whole
 * when opened and then held in memory. A torn last line (a crash mid-append, cut at the next start)
 * is not an entry; a line whose checksum does not match was refused when the data directory was
 * opened, and is skipped here. One writer: the node whose data directory it is.
 */
public final class FileJournal implements Journal {

    private final Path file;
    private final Writing writing;
    private final List<String> entries = new ArrayList<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Opened at the first append. */
    private RecordFile out;

    private FileJournal(Path file, Writing writing) {
        this.file = file;
        this.writing = writing;
    }

    /** Reads {@code file} (absent: an empty journal). Blocking. */
    public static FileJournal open(Path file, Writing writing) {
        FileJournal j = new FileJournal(file, writing);
        if (Files.isRegularFile(file)) {
            boolean legacy = writing.legacy().test(file);
            try (LineReader r = new LineReader(Files.newInputStream(file))) {
                while (r.next()) {
                    RecordLine.Check c = RecordLine.check(r.bytes(), 0, r.length());
                    if (!r.terminated() || c == RecordLine.Check.CORRUPT || c == RecordLine.Check.UNSEALED && !legacy) {
                        continue;
                    }
                    byte[] line = c == RecordLine.Check.SEALED ? RecordLine.unseal(r.bytes(), 0, r.length())
                            : java.util.Arrays.copyOf(r.bytes(), r.length());
                    j.entries.add(new String(line, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return j;
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized long size() {
        return entries.size();
    }

    @Override
    public synchronized String get(long seq) {
        return seq >= 1 && seq <= entries.size() ? entries.get((int) (seq - 1)) : null;
    }

    @Override
    public boolean append(long seq, String record) {
        synchronized (this) {
            if (seq != entries.size() + 1) {
                return false;
            }
            try {
                if (out == null) {
                    out = RecordFiles.open(file, writing);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open " + file, e);
            }
            out.append(record.getBytes(StandardCharsets.UTF_8), true);
            entries.add(record);
        }
        listeners.forEach(Runnable::run);
        return true;
    }

    @Override
    public void onAppend(Runnable listener) {
        listeners.add(listener);
    }

    /** Forces and closes the file (a server's shutdown, the end of a CLI command). */
    public synchronized void close() {
        RecordFiles.close(out, file);
        out = null;
    }
}
