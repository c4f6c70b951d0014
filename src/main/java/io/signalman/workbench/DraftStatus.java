package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.WireName;

/**
 * Where a draft stands. {@code activated} and {@code discarded} are closed: the draft is kept to
 * be read (what was activated, what was given up) but takes no more edits, so no later edit can
 * ride along with an activation nobody reviewed. An open draft whose base revision is no longer
 * the rules folder's is {@code out_of_date}: activating it would undo the change made since, so
 * it must be rebased first. An up-to-date draft whose author asked for review is {@code in_review}
 * until its content changes. Only {@code activated} and {@code discarded} are stored (and the
 * review request); the rest is worked out against the live rules whenever a draft is shown.
 */
enum DraftStatus implements WireName {
    OPEN,
    /** Open, and its author asked for review of its content as it is (an edit takes it back to open). */
    IN_REVIEW,
    OUT_OF_DATE,
    ACTIVATED,
    DISCARDED;

    boolean closed() {
        return this == ACTIVATED || this == DISCARDED;
    }

    /** The status of a draft, from its stored record and the rules folder's revision now. */
    static DraftStatus of(ObjectNode meta, String liveRevision) {
        String stored = meta.path("status").asText("open");
        if (ACTIVATED.wire().equals(stored)) {
            return ACTIVATED;
        }
        if (DISCARDED.wire().equals(stored)) {
            return DISCARDED;
        }
        if (!meta.path("base_revision").asText().equals(liveRevision)) {
            return OUT_OF_DATE;
        }
        return meta.hasNonNull("review") ? IN_REVIEW : OPEN;
    }

    /** The stored record with {@code status} worked out, as the API shows a draft. */
    static ObjectNode shown(ObjectNode meta, String liveRevision) {
        ObjectNode n = meta.deepCopy();
        n.put("status", of(meta, liveRevision).wire());
        return n;
    }
}
