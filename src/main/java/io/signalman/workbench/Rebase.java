package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;

/**
 * Brings an out-of-date draft up to date, in place: the draft's own changes (its files against the
 * revision it was made from) are applied onto the live rules by a three-way merge, so the change
 * activated since is kept and the draft's edit is not redone by hand. Where both touched the same
 * lines, both versions stay between conflict markers at that line; the draft's check then shows
 * each conflict as an error until the analyst resolves it. The draft keeps its id and takes a new
 * version; its base becomes the live revision.
 */
final class Rebase {

    static final BundleMerge.Labels LABELS = new BundleMerge.Labels("this draft", "the live rules");

    private Rebase() {
    }

    /** Blocking file I/O: a worker. {@code live} is the rules folder as it is now. */
    static ObjectNode run(Drafts drafts, Revisions revisions, String id, long version, BundleFiles live, String by) {
        ObjectNode meta = drafts.meta(id);
        DraftStatus status = DraftStatus.of(meta, live.revision());
        if (status.closed()) {
            throw new WorkbenchException(409, "draft_closed", "this draft is " + status.wire() + ": make a new draft instead");
        }
        if (status == DraftStatus.OPEN || status == DraftStatus.IN_REVIEW) {
            throw new WorkbenchException(409, "draft_up_to_date", "this draft is already made from the live rules: "
                    + "there is nothing to rebase");
        }
        String from = meta.path("base_revision").asText();
        if (!revisions.has(from)) {
            throw new WorkbenchException(409, "base_unknown", "the revision this draft was made from (" + from + ") was not kept "
                    + "here, so its own changes cannot be told apart: make a new draft and bring the edit over");
        }
        BundleMerge.Result merged = BundleMerge.merge(revisions.read(from), drafts.files(id), live, LABELS);
        drafts.replace(id, version, live, merged.files(), by);
        ObjectNode n = BundleMerge.toJson(merged);
        n.put("from_revision", from);
        n.put("to_revision", live.revision());
        return n;
    }
}
