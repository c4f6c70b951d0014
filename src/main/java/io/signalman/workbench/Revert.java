package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import java.util.TreeMap;

/**
 * "Revert this activation": a new draft of the live rules minus one activation's own diff, so an
 * earlier change can be undone while every later one stays (a rollback goes back to the rules
 * before an activation, and so undoes everything after it too). The undoing is a three-way
 * merge: from the rules the activation made to the rules before it, applied onto the live rules;
 * where a later activation changed the same lines, both stay between conflict markers at that
 * line. The draft then goes through the same check, impact and gate as any other.
 */
final class Revert {

    private Revert() {
    }

    /** Blocking file I/O: a worker. Returns the merge's outcome with the new draft's id. */
    static ObjectNode run(ActivationLog log, Drafts drafts, int seq, BundleFiles live, String by) {
        ObjectNode rec = log.bySeq(seq);
        BundleMerge.Result merged = merge(log, seq, live);
        String note = "Revert activation #" + seq + " (" + rec.path("note").asText() + ")";
        String id = drafts.create(live, new TreeMap<>(merged.files()), "revert of activation #" + seq, note, by);
        ObjectNode n = BundleMerge.toJson(merged);
        n.put("draft", id);
        n.put("activation", seq);
        n.put("nothing_to_revert", merged.changed().isEmpty());
        return n;
    }

    /**
     * An operator's emergency revert: the same merge, activated at once without approvals (the
     * change undone was approved when it went live; the point is speed), marked {@code emergency}
     * as a rollback is. Refused (409) when later activations changed the same lines: that merge
     * needs an author's hands, in a draft.
     */
    static ObjectNode emergency(Activations activations, int seq, BundleFiles live, io.signalman.people.Principal by, String note,
                                boolean acceptGolden) {
        BundleMerge.Result merged = merge(activations.log(), seq, live);
        BundleFiles files = BundleFiles.of(live.root(), new TreeMap<>(merged.files()));
        java.util.List<io.signalman.engine.BundleError> conflicts = DraftCheck.conflicts(files);
        if (!conflicts.isEmpty()) {
            throw WorkbenchException.located(409, "revert_conflicts", "later activations changed the same lines as activation #"
                    + seq + ": revert it into a draft (an author's), resolve the conflicts there, and activate that", conflicts);
        }
        if (merged.changed().isEmpty()) {
            throw new WorkbenchException(409, "nothing_to_revert", "the live rules no longer hold anything activation #" + seq
                    + " changed");
        }
        return activations.activate(files, "revert", "activation #" + seq, by, note, acceptGolden,
                io.signalman.json.Json.object().put("emergency", true).put("reverts", seq), "reverted");
    }

    /** The live rules minus activation {@code seq}'s own change: a three-way merge. */
    private static BundleMerge.Result merge(ActivationLog log, int seq, BundleFiles live) {
        ObjectNode rec = log.bySeq(seq);
        Revisions revisions = log.revisions();
        String made = rec.path("new_revision").asText();
        String before = rec.path("old_revision").asText();
        if (!revisions.has(made) || !revisions.has(before)) {
            throw new WorkbenchException(409, "revision_not_kept", "the rules before or after activation #" + seq
                    + " were not kept here, so its change cannot be undone on its own");
        }
        String label = "reverting #" + seq;
        return BundleMerge.merge(revisions.read(made), revisions.read(before), live, new BundleMerge.Labels(label, "the live rules"));
    }
}
