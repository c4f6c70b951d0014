package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.control.FilesCodec;
import io.signalman.control.Journal;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;

/**
 * The record of activations, the control plane's activations {@link Journal}: one JSON object per
 * activation (who, when, the note, the diff, the impact summary, old and new revision), sealed and
 * forced before the activation is answered ({@code <data>/activations.jsonl} on one node, the
 * cluster's map in a cluster). In a cluster its newest entry names the cluster's live revision, and
 * an append is the compare-and-set that makes a revision live: it lands only on the revision it
 * was made from ({@link #append(ObjectNode, String)}). The revisions live before and after each
 * activation are kept in {@link Revisions}: what a rollback restores and a revert undoes.
 */
final class ActivationLog {

    private final Journal journal;
    private final Revisions revisions;

    ActivationLog(Journal journal, Revisions revisions) {
        this.journal = journal;
        this.revisions = revisions;
    }

    Journal journal() {
        return journal;
    }

    /** Appends {@code rec} with the next sequence number, sealed and forced; returns it as written. */
    ObjectNode append(ObjectNode rec) {
        return append(rec, null);
    }

    /**
     * Appends {@code rec} as the next activation, only while the newest one made {@code from} live
     * (null: whatever is live; a single node, whose folder is the truth); returns it as written.
     *
     * @throws WorkbenchException 409 {@code draft_out_of_date} when another activation made another revision live first
     */
    synchronized ObjectNode append(ObjectNode rec, String from) {
        for (int attempt = 0; attempt < 100; attempt++) {
            long seq = journal.size() + 1;
            String live = live(seq - 1);
            if (from != null && live != null && !from.equals(live)) {
                throw new WorkbenchException(409, "draft_out_of_date", "another activation made " + live + " live first (this "
                        + "change was made from " + from + "): look at the live rules again (rebase a draft onto them), so that "
                        + "no change is undone");
            }
            ObjectNode line = Json.object();
            line.put("seq", seq);
            line.setAll(rec);
            if (journal.append(seq, Json.write(line))) {
                return line;
            }
        }
        throw new WorkbenchException(503, "busy", "the activations changed too often at once: try again");
    }

    /** The revision the newest activation made live, or null when there is none. */
    String live() {
        return live(journal.size());
    }

    private String live(long seq) {
        String rec = seq < 1 ? null : journal.get(seq);
        return rec == null ? null : FilesCodec.parse(rec).path("new_revision").asText(null);
    }

    /** Every activation, oldest first. */
    ArrayNode history() {
        ArrayNode lines = Json.array();
        long n = journal.size();
        for (long i = 1; i <= n; i++) {
            String rec = journal.get(i);
            JsonNode node = rec == null ? null : FilesCodec.parse(rec);
            if (node != null && node.isObject()) {
                ((ObjectNode) node).remove(io.signalman.datadir.RecordLine.FIELD);
                lines.add(node);
            }
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
