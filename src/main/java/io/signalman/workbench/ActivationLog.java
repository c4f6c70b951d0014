package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The record of activations: {@code <data>/activations.jsonl}, one JSON object per activation
 * (who, when, the note, the diff, the impact summary, old and new revision), sealed with its
 * checksum, appended and forced to disk before the activation is answered ({@link RecordFile}); and a copy of every bundle revision that was live
 * before or after an activation under {@code <data>/workbench/revisions/<hash>/}, which is what a
 * rollback restores.
 */
final class ActivationLog {

    private static final Pattern REVISION = Pattern.compile("sha256:[0-9a-f]{64}");

    private final Path file;
    private final Path revisions;
    private final Writing writing;
    /** Opened at the first append (a torn tail was cut when the data directory was opened). */
    private RecordFile out;

    ActivationLog(Path data, Writing writing) {
        this.file = data.resolve("activations.jsonl");
        this.revisions = data.resolve("workbench").resolve("revisions");
        this.writing = writing;
    }

    Path file() {
        return file;
    }

    /** Appends {@code rec} with the next sequence number, sealed and forced; returns it as written. */
    synchronized ObjectNode append(ObjectNode rec) {
        ObjectNode line = Json.object();
        line.put("seq", history().size() + 1);
        line.setAll(rec);
        try {
            if (out == null) {
                Files.createDirectories(file.getParent());
                if (!Files.exists(file)) {
                    writing.registry().adding(file);
                }
                out = RecordFile.open(file, writing.disk(), writing.storage(), writing.legacy().test(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file, e);
        }
        out.append(Json.bytes(line), true);
        return line;
    }

    /** Every activation, oldest first; a torn last line (a crash mid-append) is skipped. */
    synchronized ArrayNode history() {
        ArrayNode lines = Json.array();
        if (!Files.isRegularFile(file)) {
            return lines;
        }
        boolean legacy = writing.legacy().test(file);
        try (LineReader r = new LineReader(Files.newInputStream(file))) {
            while (r.next()) {
                RecordLine.Check c = RecordLine.check(r.bytes(), 0, r.length());
                if (!r.terminated() || c == RecordLine.Check.CORRUPT || c == RecordLine.Check.UNSEALED && !legacy) {
                    continue;
                }
                JsonNode n = Json.MAPPER.readTree(r.bytes(), 0, r.length());
                if (n != null && n.isObject()) {
                    ((ObjectNode) n).remove(RecordLine.FIELD);
                    lines.add(n);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    /** Keeps a copy of a bundle revision (once) so that it can be rolled back to. */
    void snapshot(BundleFiles files) {
        Path dir = dir(files.revision());
        if (Files.isDirectory(dir)) {
            return;
        }
        Path tmp = dir.resolveSibling("." + dir.getFileName() + ".tmp");
        try {
            for (String p : files.paths()) {
                Path target = DraftPaths.resolve(tmp, p);
                Files.createDirectories(target.getParent());
                Files.write(target, files.bytes(p));
            }
            Files.move(tmp, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep a copy of revision " + files.revision(), e);
        }
    }

    /** The files of an earlier revision named in the history, for a rollback. */
    BundleFiles revision(String revision) {
        if (revision == null || !REVISION.matcher(revision).matches()) {
            throw new WorkbenchException(400, "invalid_input", "\"revision\" must be a bundle revision (sha256:...)");
        }
        boolean known = false;
        for (JsonNode n : history()) {
            known |= revision.equals(n.path("old_revision").asText()) || revision.equals(n.path("new_revision").asText());
        }
        if (!known || !Files.isDirectory(dir(revision))) {
            throw new WorkbenchException(404, "unknown_revision", "revision " + revision + " was never activated here");
        }
        try {
            return BundleFiles.read(dir(revision));
        } catch (BundleException e) {
            throw WorkbenchException.located(500, "revision_unreadable", "the copy of " + revision + " cannot be read", e.errors());
        }
    }

    private Path dir(String revision) {
        return revisions.resolve(revision.replace("sha256:", ""));
    }
}
