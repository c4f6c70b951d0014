package io.signalman.control;

import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/** How people's files are opened and read: sealed records through the data directory. */
public final class RecordFiles {

    private RecordFiles() {
    }

    /**
     * Opens {@code file} for appending. A new file is created empty and only then listed in the
     * manifest: a crash between the two leaves an empty file nobody listed, which the next start
     * removes (a file listed first and never created would be missing, and refused).
     */
    public static RecordFile open(Path file, Writing writing) throws IOException {
        if (!Files.exists(file)) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.createFile(file);
            writing.registry().adding(file);
        }
        return RecordFile.open(file, writing.disk(), writing.storage(), writing.legacy().test(file));
    }

    /** Forces and closes {@code out}, the open {@code file}, unless it is null (closed already). */
    public static void close(RecordFile out, Path file) {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + file, e);
            }
        }
    }

    /** One record's JSON, or null when it is not JSON (never the case for a sealed record of ours). */
    public static com.fasterxml.jackson.databind.JsonNode json(byte[] line) {
        try {
            return io.signalman.json.Json.MAPPER.readTree(line);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Each whole, sealed line of {@code in}, without its checksum field, in order. A line cut
     * short (no newline: a crash mid-write, cut at the next start) is skipped; a line whose
     * checksum does not match stops the reading: the data directory's check refuses such a file
     * at start, so a reader never acts on a damaged record.
     */
    public static void lines(InputStream in, String what, Consumer<byte[]> each) throws IOException {
        try (LineReader r = new LineReader(in)) {
            while (r.next()) {
                if (!r.terminated()) {
                    continue;
                }
                if (RecordLine.check(r.bytes(), 0, r.length()) != RecordLine.Check.SEALED) {
                    throw new IOException(what + ": line " + r.number() + " does not match its checksum");
                }
                each.accept(RecordLine.unseal(r.bytes(), 0, r.length()));
            }
        }
    }
}
