package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import io.signalman.people.Approvals;
import io.signalman.people.People;

/**
 * The one check of four eyes before rules decide anything: an activation, a trial's promotion
 * and a canary (which answers real requests, at any percent) each need the approvals of their
 * draft given to exactly the content that will run, by someone other than its authors, and no
 * standing rejection ({@link Approvals}). Blocking (reads the draft's record): a worker.
 */
final class FourEyes {

    private final People people;
    private final Drafts drafts;

    FourEyes(People people, Drafts drafts) {
        this.people = people;
        this.drafts = drafts;
    }

    /** Where {@code draft}'s content {@code contentHash} stands now. */
    Approvals.Standing standing(String draft, String contentHash) {
        return people.approvals().standing(draft, contentHash, DraftRecords.authors(drafts.meta(draft)), people.required());
    }

    /**
     * The standing of {@code draft}'s content {@code contentHash} when it is enough for that
     * content to {@code act} ("be activated", "run as a canary"); 409 {@code approval_required},
     * with {@code details.approvals}, otherwise.
     */
    Approvals.Standing require(String draft, String contentHash, String act) {
        Approvals.Standing standing = standing(draft, contentHash);
        if (standing.ok()) {
            return standing;
        }
        ObjectNode d = Json.object();
        d.set("approvals", standing.toJson());
        Approvals.Verdict no = standing.rejections().isEmpty() ? null : standing.rejections().get(0);
        throw new WorkbenchException(409, "approval_required", no == null
                ? "draft " + draft + " needs " + standing.required() + " approval(s) of this content (" + contentHash
                + ") by someone other than its authors before it may " + act + "; it has " + standing.approvals().size()
                : "draft " + draft + " was rejected by " + no.user() + " (\"" + no.note() + "\"): change it, or have them "
                + "approve it, before it may " + act, d);
    }
}
