package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The record of activations: {@code <data>/activations.jsonl}, one JSON object per activation
 * (who, when, the note, the diff, the impact summary, old and new revision), appended and forced
 * to disk before the activation is answered. The revisions live before and after each activation
 * are kept in {@link Revisions}: what a rollback restores and a revert undoes.
 */
final class ActivationLog {

    private final Path file;
    private final Revisions revisions;

    ActivationLog(Path data, Revisions revisions) {
        this.file = data.resolve("activations.jsonl");
        this.revisions = revisions;
    }

    Path file() {
        return file;
    }

    /** Appends {@code rec} with the next sequence number; returns it as written. */
    synchronized ObjectNode append(ObjectNode rec) {
        ObjectNode out = Json.object();
        out.put("seq", history().size() + 1);
        out.setAll(rec);
        byte[] line = (Json.write(out) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(file.getParent());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap(line));
                ch.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file, e);
        }
        return out;
    }

    /** Every activation, oldest first; a torn or unreadable line is skipped. */
    synchronized ArrayNode history() {
        ArrayNode out = Json.array();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    JsonNode n = Json.parse(line);
                    if (n.isObject()) {
                        out.add(n);
                    }
                } catch (io.signalman.json.InputException e) {
                    // a line torn by a crash mid-append: the activations before it still count
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
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
