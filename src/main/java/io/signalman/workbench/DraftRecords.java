package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Each draft's record (held by the control plane's {@link io.signalman.control.DraftStore}): the
 * revision it was made from, where it came from, its version and its stored status. This is where
 * a change is let through or refused:
 * a closed draft takes none, a draft going through activation takes none, and a change names the
 * version it was made to (a stale one is 409 {@code draft_changed}, with where the draft is now).
 * The store's compare-and-set on the version then lets one of two racing changes land.
 */
final class DraftRecords {

    /** Drafts going through the activation gate on this node: their files must not change under it. */
    private final Set<String> activating = new HashSet<>();

    /** {@code meta} (a copy), when the draft may change and {@code version} is its version; 409 otherwise. */
    ObjectNode editable(String id, ObjectNode meta, long version) {
        String status = meta.path("status").asText("open");
        if (closed(status)) {
            throw new WorkbenchException(409, "draft_closed", "this draft is " + status + " and takes no more changes: "
                    + "make a new draft from the live rules");
        }
        if (activating(id) || meta.path("activating").asBoolean(false)) {
            throw new WorkbenchException(409, "draft_activating", "the draft is being activated right now; wait for the outcome");
        }
        long current = meta.path("version").asLong(1);
        if (version != current) {
            throw changed(meta, version);
        }
        return meta.deepCopy();
    }

    /** 409 {@code draft_changed}: {@code version} is not the draft's version any more. */
    static WorkbenchException changed(ObjectNode meta, long version) {
        long current = meta.path("version").asLong(1);
        ObjectNode d = Json.object().put("version", current).put("your_version", version)
                .put("saved_at", meta.path("saved_at").asText(null)).put("saved_file", meta.path("saved_file").asText(null));
        return new WorkbenchException(409, "draft_changed", "the draft was saved by someone else since you opened it (it is at "
                + "version " + current + ", you edited version " + version + "): your text is not lost, but reload the "
                + "draft and bring your edit over so that theirs is kept too", d);
    }

    /**
     * A change went through: the next version, saved now (of {@code file}, or of the whole draft
     * when null) by {@code by}, who is an author of the draft from now on (and so may not approve it).
     */
    static ObjectNode saved(ObjectNode meta, String file, String by) {
        meta.put("version", meta.path("version").asLong(1) + 1).put("saved_at", Instant.now().toString()).put("saved_file", file)
                .put("saved_by", by);
        // A review was asked of the content as it was: the reviewer must be asked again about this one.
        meta.remove("review");
        if (!authors(meta).contains(by)) {
            meta.withArray("authors").add(by);
        }
        return meta;
    }

    /** Everyone who wrote the draft's content: who made it and everyone who changed it since. */
    static java.util.List<String> authors(ObjectNode meta) {
        java.util.List<String> out = new java.util.ArrayList<>();
        meta.path("authors").forEach(a -> out.add(a.asText()));
        return out;
    }

    /** {@code meta} closed as {@code status} (a copy), or null when it is closed already. */
    static ObjectNode closedAs(ObjectNode meta, String status) {
        if (closed(meta.path("status").asText())) {
            return null;
        }
        return meta.deepCopy().put("status", status).put("closed_at", Instant.now().toString());
    }

    synchronized boolean activating(String id) {
        return activating.contains(id);
    }

    synchronized void startActivation(String id) {
        activating.add(id);
    }

    synchronized void endActivation(String id) {
        activating.remove(id);
    }

    static boolean closed(String status) {
        return "activated".equals(status) || "discarded".equals(status);
    }
}
