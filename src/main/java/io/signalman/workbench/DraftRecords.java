package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Each draft's record, {@code <drafts>/<id>/draft.json}: the revision it was made from, where it
 * came from, its version and its stored status. This is where a change is let through or refused:
 * a closed draft takes none, a draft going through activation takes none, and a change names the
 * version it was made to (a stale one is 409 {@code draft_changed}, with where the draft is now).
 * Callers hold {@link Drafts}' lock around a check and the change it guards.
 */
final class DraftRecords {

    private final Path root;
    /** Drafts going through the activation gate: their files must not change under it. */
    private final Set<String> activating = new HashSet<>();

    DraftRecords(Path root) {
        this.root = root;
    }

    ObjectNode read(String id) {
        try {
            return (ObjectNode) Json.parse(Files.readAllBytes(root.resolve(id).resolve("draft.json")));
        } catch (IOException | io.signalman.json.InputException | ClassCastException e) {
            throw new WorkbenchException(500, "draft_unreadable", "the draft's draft.json cannot be read: " + e.getMessage());
        }
    }

    void write(String id, ObjectNode meta) {
        try {
            AtomicFiles.write(root.resolve(id).resolve("draft.json"), Json.bytes(meta));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the record of draft " + id, e);
        }
    }

    /** The stored record, when the draft may change and {@code version} is its version; 409 otherwise. */
    ObjectNode editable(String id, long version) {
        ObjectNode meta = read(id);
        String status = meta.path("status").asText("open");
        if (closed(status)) {
            throw new WorkbenchException(409, "draft_closed", "this draft is " + status + " and takes no more changes: "
                    + "make a new draft from the live rules");
        }
        if (activating.contains(id)) {
            throw new WorkbenchException(409, "draft_activating", "the draft is being activated right now; wait for the outcome");
        }
        long current = meta.path("version").asLong(1);
        if (version != current) {
            ObjectNode d = Json.object().put("version", current).put("your_version", version)
                    .put("saved_at", meta.path("saved_at").asText(null)).put("saved_file", meta.path("saved_file").asText(null));
            throw new WorkbenchException(409, "draft_changed", "the draft was saved by someone else since you opened it (it is at "
                    + "version " + current + ", you edited version " + version + "): your text is not lost, but reload the "
                    + "draft and bring your edit over so that theirs is kept too", d);
        }
        return meta;
    }

    /**
     * A change went through: the next version, saved now (of {@code file}, or of the whole draft
     * when null) by {@code by}, who is an author of the draft from now on (and so may not approve it).
     */
    void saved(String id, ObjectNode meta, String file, String by) {
        meta.put("version", meta.path("version").asLong(1) + 1).put("saved_at", Instant.now().toString()).put("saved_file", file)
                .put("saved_by", by);
        if (!authors(meta).contains(by)) {
            meta.withArray("authors").add(by);
        }
        write(id, meta);
    }

    /** Everyone who wrote the draft's content: who made it and everyone who changed it since. */
    static java.util.List<String> authors(ObjectNode meta) {
        java.util.List<String> out = new java.util.ArrayList<>();
        meta.path("authors").forEach(a -> out.add(a.asText()));
        return out;
    }

    void closeAs(String id, String status) {
        ObjectNode meta = read(id);
        if (!closed(meta.path("status").asText())) {
            meta.put("status", status).put("closed_at", Instant.now().toString());
            write(id, meta);
        }
    }

    boolean activating(String id) {
        return activating.contains(id);
    }

    void startActivation(String id) {
        activating.add(id);
    }

    void endActivation(String id) {
        activating.remove(id);
    }

    static boolean closed(String status) {
        return "activated".equals(status) || "discarded".equals(status);
    }
}
