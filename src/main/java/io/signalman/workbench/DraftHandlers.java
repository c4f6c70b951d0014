package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.json.Json;
import io.signalman.people.Approvals;
import io.signalman.people.People;
import io.signalman.people.Principal;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workbench's draft requests, each a few lines over the pieces that do the work: drafts and
 * their status ({@link Drafts}, {@link DraftStatus}), the whole check ({@link DraftCheck}),
 * {@link Rebase}, {@link Revert}, approvals and activation. Whoever changes a draft's content is
 * one of its authors from then on, and no author's verdict counts for it ({@link Approvals}).
 * Every method does file I/O or compiles: a worker.
 */
final class DraftHandlers {

    private final Engine engine;
    private final Drafts drafts;
    private final DraftCheck check;
    private final Activations activations;
    private final People people;
    private final FourEyes fourEyes;

    DraftHandlers(Engine engine, Drafts drafts, DraftCheck check, Activations activations, People people, FourEyes fourEyes) {
        this.engine = engine;
        this.drafts = drafts;
        this.check = check;
        this.activations = activations;
        this.people = people;
        this.fourEyes = fourEyes;
    }

    /** Every draft's record with its status, newest first. */
    ArrayNode list() {
        String live = live().revision();
        ArrayNode a = Json.array();
        drafts.ids().stream().map(drafts::meta).sorted((x, y) -> y.path("created_at").asText().compareTo(x.path("created_at").asText()))
                .forEach(m -> a.add(DraftStatus.shown(m, live)));
        return a;
    }

    ObjectNode create(Principal by) {
        BundleFiles live = live();
        return show(drafts.create(live, map(live), "the live rules", null, by.name()));
    }

    /**
     * A draft: its record and status, its files against the revision it was made from (what the
     * draft itself changes: for an up-to-date draft, the live rules), and its whole check.
     */
    ObjectNode show(String id) {
        BundleFiles files = drafts.files(id);
        BundleFiles live = live();
        ObjectNode meta = drafts.meta(id);
        ObjectNode n = DraftStatus.shown(meta, live.revision());
        n.put("live_revision", live.revision());
        String baseRevision = meta.path("base_revision").asText();
        Revisions revisions = activations.log().revisions();
        BundleFiles base = baseRevision.equals(live.revision()) || !revisions.has(baseRevision) ? live : revisions.read(baseRevision);
        ArrayNode list = n.putArray("files");
        for (String p : files.paths()) {
            String status = !base.paths().contains(p) ? "added" : Arrays.equals(base.bytes(p), files.bytes(p)) ? "unchanged" : "changed";
            list.addObject().put("path", p).put("status", status);
        }
        base.paths().stream().filter(p -> !files.paths().contains(p))
                .forEach(p -> list.addObject().put("path", p).put("status", "removed"));
        DraftCheck.Full full = check.of(files);
        n.set("check", full.check());
        n.set("scenarios", full.scenarios());
        n.put("content_hash", files.revision());
        n.set("approvals", fourEyes.standing(id, files.revision()).toJson());
        return n;
    }

    private java.util.function.BinaryOperator<String> impactSeen = (d, h) -> null;

    /** Where a verdict finds the impact run its giver saw: the draft's last one over the same content. */
    void impactSeen(java.util.function.BinaryOperator<String> seen) {
        this.impactSeen = seen;
    }

    private java.util.function.Supplier<JsonNode> runningTrials = Json::array;

    /** The trials running now (as {@code GET /v1/trials} shows them): a rejection may name the content one runs. */
    void runningTrials(java.util.function.Supplier<JsonNode> running) {
        this.runningTrials = running;
    }

    /** Whether a running trial of draft {@code id} runs exactly the content {@code hash} as its candidate. */
    private boolean trialRuns(String id, String hash) {
        for (JsonNode t : runningTrials.get()) {
            if (id.equals(t.path("draft").asText()) && hash.equals(t.path("candidate_revision").asText())) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code POST drafts/{id}/request-review} {@code {"note"}}: the draft's author asks for review of
     * its content as it is; recorded in the audit log ({@code review_requested}). The draft must
     * compile: a reviewer's time goes to changes that can go live.
     */
    ObjectNode requestReview(String id, JsonNode req, Principal by) {
        ObjectNode meta = drafts.meta(id);
        if (DraftRecords.authors(meta).stream().noneMatch(by::sameAs)) {
            throw new WorkbenchException(403, "not_an_author", by.name() + " did not write this draft: its authors ask for its review");
        }
        BundleFiles files = drafts.files(id);
        if (!check.of(files).check().path("ok").asBoolean(true)) {
            throw new WorkbenchException(422, "draft_does_not_compile", "the draft has errors: fix them before asking for review");
        }
        String note = req.path("note").isTextual() ? req.get("note").asText().strip() : "";
        if (note.length() > 2_000) {
            throw new WorkbenchException(400, "invalid_input", "a review note may be 2,000 characters at most");
        }
        drafts.requestReview(id, by.name(), note, files.revision());
        people.record(by, "review_requested", Json.object().put("draft", id).put("content_hash", files.revision()).put("note", note));
        return show(id);
    }

    /** {@code PUT drafts/{id}/file?path=} {@code {"text", "version"}}: the save, answered with the whole check. */
    ObjectNode save(String id, String path, JsonNode req, Principal by) {
        if (!req.path("text").isTextual()) {
            throw new WorkbenchException(400, "invalid_input", "send {\"text\": \"the file's new content\", \"version\": N}");
        }
        drafts.write(id, path, req.get("text").asText(), version(req.get("version")), by.name());
        ObjectNode n = show(id);
        n.put("saved", path);
        return n;
    }

    ObjectNode deleteFile(String id, String path, String version, Principal by) {
        drafts.delete(id, path, version(version == null ? null : Json.MAPPER.getNodeFactory().textNode(version)), by.name());
        return show(id);
    }

    ObjectNode discard(String id) {
        drafts.discard(id);
        return show(id);
    }

    /** {@code POST drafts/{id}/rebase} {@code {"version"}}: in place, answered with the draft and the merge. */
    ObjectNode rebase(String id, JsonNode req, Principal by) {
        ObjectNode merge = Rebase.run(drafts, activations.log().revisions(), id, version(req.get("version")), live(), by.name());
        ObjectNode n = show(id);
        n.set("rebase", merge);
        return n;
    }

    /** An activation's number as the path gives it; 404 for anything else. */
    private static int activation(String seq) {
        try {
            return Integer.parseInt(seq);
        } catch (NumberFormatException e) {
            throw new WorkbenchException(404, "unknown_activation", "there is no activation #" + (seq.length() > 20
                    ? seq.substring(0, 20) : seq));
        }
    }

    /** {@code POST activations/{seq}/emergency-revert} {@code {"note"}}: an operator undoes one activation at once. */
    ObjectNode emergencyRevert(String seq, JsonNode req, Principal by) {
        return Revert.emergency(activations, activation(seq), live(), by, req.path("note").asText(null),
                req.path("accept_golden_changes").asBoolean(false));
    }

    /** {@code POST activations/{seq}/revert}: a new draft, answered with it and the merge. */
    ObjectNode revert(String seq, Principal by) {
        ObjectNode merge = Revert.run(activations.log(), drafts, activation(seq), live(), by.name());
        ObjectNode out = show(merge.get("draft").asText());
        out.set("revert", merge);
        return out;
    }

    /**
     * {@code POST drafts/{id}/approve} or {@code .../reject} {@code {"note", "content_hash"?}}: a
     * verdict on the draft's content as it is now, recorded in the audit log (which is where the
     * approvals are read from). An author of the draft is refused (403 {@code own_draft}); with
     * {@code content_hash}, the verdict is only given if the content is still what the approver
     * read (409 {@code draft_changed} otherwise), except that a rejection may name the content a
     * running trial of the draft runs, which withdraws the approvals a canary of it runs on.
     */
    ObjectNode verdict(String id, JsonNode req, Principal by, boolean approve) {
        Bodies.only(req, "note", "content_hash");
        String note = Bodies.note(req, approve ? "an approval" : "a rejection");
        ObjectNode meta = drafts.meta(id);
        DraftStatus status = DraftStatus.of(meta, live().revision());
        if (status.closed()) {
            throw new WorkbenchException(409, "draft_closed", "this draft is " + status.wire() + ": there is nothing to "
                    + (approve ? "approve" : "reject"));
        }
        if (DraftRecords.authors(meta).stream().anyMatch(by::sameAs)) {
            throw new WorkbenchException(403, "own_draft", by.name() + " wrote this draft: it needs the eyes of someone else");
        }
        BundleFiles files = drafts.files(id);
        JsonNode seen = req.get("content_hash");
        String about = files.revision();
        if (seen != null && !seen.isNull() && !about.equals(seen.asText())) {
            // Withdrawing an approval of what runs: a rejection may name the content a running trial of the draft
            // runs, though the draft moved on since (an approval only ever names the content as it is now).
            if (approve || !seen.isTextual() || !trialRuns(id, seen.asText())) {
                throw new WorkbenchException(409, "draft_changed", "the draft changed since you read it (its content is now "
                        + about + "): read it again before you " + (approve ? "approve" : "reject") + " it"
                        + (approve ? "" : ", or name the content a running trial of it runs (its candidate_revision)"));
            }
            about = seen.asText();
        }
        // The verdict names the impact run its giver could see for this content (null: none had run).
        people.record(by, approve ? Approvals.APPROVED : Approvals.REJECTED, Json.object().put("draft", id)
                .put("content_hash", about).put("base_revision", meta.path("base_revision").asText()).put("note", note)
                .put("impact_job", impactSeen.apply(id, about)));
        return show(id);
    }

    /**
     * Activation of an open, up-to-date draft with the approvals the server asks for
     * ({@code --approvals}); the draft is closed when it goes through, and takes no change while
     * the gate decides.
     */
    ObjectNode activate(String id, JsonNode req, Principal by) {
        BundleFiles live = live();
        DraftStatus status = DraftStatus.of(drafts.meta(id), live.revision());
        if (status.closed()) {
            throw new WorkbenchException(409, "draft_closed", "this draft is " + status.wire() + ": it cannot be activated again");
        }
        if (status == DraftStatus.OUT_OF_DATE) {
            // A draft holds every file: activating one made before another change would undo that change.
            throw new WorkbenchException(409, "draft_out_of_date", "the rules changed since this draft was made (from "
                    + drafts.meta(id).path("base_revision").asText() + ", the rules folder is now " + live.revision()
                    + "): rebase it onto the live rules first, so that no change is undone");
        }
        java.util.List<io.signalman.engine.BundleError> conflicts = DraftCheck.conflicts(drafts.files(id));
        if (!conflicts.isEmpty()) {
            throw WorkbenchException.located(422, "unresolved_conflicts", conflicts.size() + " conflict(s) from a rebase or "
                    + "revert are not resolved yet: nothing was activated", conflicts);
        }
        JsonNode v = req.get("version");
        drafts.activating(id, v == null || v.isNull() ? null : version(v));
        try {
            // Judged while the draft takes no edit: the content approved is the content activated.
            ObjectNode meta = drafts.meta(id);
            BundleFiles files = drafts.files(id);
            Approvals.Standing standing = fourEyes.require(id, files.revision(), "be activated");
            ObjectNode about = Json.object().put("draft", id).put("base_revision", meta.path("base_revision").asText());
            DraftRecords.authors(meta).forEach(about.withArray("authors")::add);
            standing.approvals().forEach(a -> about.withArray("approvals").addObject().put("user", a.user())
                    .put("at", a.at()).put("note", a.note()).put("audit_seq", a.seq()));
            ObjectNode rec = activations.activate(files, "activate", "draft " + id, by, req.path("note").asText(null),
                    req.path("accept_golden_changes").asBoolean(false), about, "activated");
            drafts.activated(id, rec.path("seq").asLong());
            return rec;
        } finally {
            drafts.released(id);
        }
    }

    BundleFiles live() {
        try {
            return BundleFiles.read(engine.rulesDir());
        } catch (BundleException e) {
            throw WorkbenchException.located(500, "rules_unreadable", "the rules folder cannot be read", e.errors());
        }
    }

    static Map<String, byte[]> map(BundleFiles files) {
        Map<String, byte[]> m = new TreeMap<>();
        files.paths().forEach(p -> m.put(p, files.bytes(p)));
        return m;
    }

    /** The draft version a change was made to: required, so that no save overwrites one it never saw. */
    private static long version(JsonNode v) {
        if (v == null || v.isNull() || !(v.isIntegralNumber() || v.isTextual() && v.asText().matches("[0-9]{1,18}"))) {
            throw new WorkbenchException(400, "version_required", "name the draft version you edited (\"version\": N, as "
                    + "GET drafts/{id} shows it), so that a save never overwrites an edit you have not seen");
        }
        return v.asLong();
    }
}
