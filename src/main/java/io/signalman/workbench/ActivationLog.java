package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.LineReader;
import io.signalman.datadir.RecordFile;
import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The record of activations: {@code <data>/activations.jsonl}, one JSON object per activation
 * (who, when, the note, the diff, the impact summary, old and new revision), sealed with its
 * checksum, appended and forced to disk before the activation is answered ({@link RecordFile}). The revisions live before and after each activation
 * are kept in {@link Revisions}: what a rollback restores and a revert undoes.
 */
final class ActivationLog {

    private final Path file;
    private final Revisions revisions;
    private final Writing writing;
    /** Opened at the first append (a torn tail was cut when the data directory was opened). */
    private RecordFile out;

    ActivationLog(Path data, Revisions revisions, Writing writing) {
        this.file = data.resolve("activations.jsonl");
        this.revisions = revisions;
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

    /** One activation by its sequence number; 404 when there is none. */
    ObjectNode bySeq(int seq) {
        for (JsonNode n : history()) {
            if (n.path("seq").asInt() == seq) {
                return (ObjectNode) n;
            }
        }
        throw new WorkbenchException(404, "unknown_activation", "there is no activation #" + seq);
    }

    /** The files of an earlier revision named in the history, for a rollback. */
    BundleFiles revision(String revision) {
        if (!Revisions.wellFormed(revision)) {
            throw new WorkbenchException(400, "invalid_input", "\"revision\" must be a bundle revision (sha256:...)");
        }
        boolean known = false;
        for (JsonNode n : history()) {
            known |= revision.equals(n.path("old_revision").asText()) || revision.equals(n.path("new_revision").asText());
        }
        if (!known || !revisions.has(revision)) {
            throw new WorkbenchException(404, "unknown_revision", "revision " + revision + " was never activated here");
        }
        return revisions.read(revision);
    }

    Revisions revisions() {
        return revisions;
    }
}
