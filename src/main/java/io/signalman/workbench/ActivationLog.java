package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
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
import java.util.regex.Pattern;

/**
 * The record of activations: {@code <data>/activations.jsonl}, one JSON object per activation
 * (who, when, the note, the diff, the impact summary, old and new revision), appended and forced
 * to disk before the activation is answered; and a copy of every bundle revision that was live
 * before or after an activation under {@code <data>/workbench/revisions/<hash>/}, which is what a
 * rollback restores.
 */
final class ActivationLog {

    private static final Pattern REVISION = Pattern.compile("sha256:[0-9a-f]{64}");

    private final Path file;
    private final Path revisions;

    ActivationLog(Path data) {
        this.file = data.resolve("activations.jsonl");
        this.revisions = data.resolve("workbench").resolve("revisions");
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
