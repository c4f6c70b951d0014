package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.json.Json;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workbench's draft requests, each a few lines over the pieces that do the work: drafts and
 * their status ({@link Drafts}, {@link DraftStatus}), the whole check ({@link DraftCheck}),
 * {@link Rebase}, {@link Revert} and activation. Every method does file I/O or compiles: a worker.
 */
final class DraftHandlers {

    private final Engine engine;
    private final Drafts drafts;
    private final DraftCheck check;
    private final Activations activations;
    private final WorkbenchOptions options;

    DraftHandlers(Engine engine, Drafts drafts, DraftCheck check, Activations activations, WorkbenchOptions options) {
        this.engine = engine;
        this.drafts = drafts;
        this.check = check;
        this.activations = activations;
        this.options = options;
    }

    /** Every draft's record with its status, newest first. */
    ArrayNode list() {
        String live = live().revision();
        ArrayNode a = Json.array();
        drafts.ids().stream().map(drafts::meta).sorted((x, y) -> y.path("created_at").asText().compareTo(x.path("created_at").asText()))
                .forEach(m -> a.add(DraftStatus.shown(m, live)));
        return a;
    }

    ObjectNode create() {
        BundleFiles live = live();
        return show(drafts.create(live, map(live), "the live rules", null));
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
        return n;
    }

    /** {@code PUT drafts/{id}/file?path=} {@code {"text", "version"}}: the save, answered with the whole check. */
    ObjectNode save(String id, String path, JsonNode req) {
        if (!req.path("text").isTextual()) {
            throw new WorkbenchException(400, "invalid_input", "send {\"text\": \"the file's new content\", \"version\": N}");
        }
        drafts.write(id, path, req.get("text").asText(), version(req.get("version")));
        ObjectNode n = show(id);
        n.put("saved", path);
        return n;
    }

    ObjectNode deleteFile(String id, String path, String version) {
        drafts.delete(id, path, version(version == null ? null : Json.MAPPER.getNodeFactory().textNode(version)));
        return show(id);
    }

    ObjectNode discard(String id) {
        drafts.discard(id);
        return show(id);
    }

    /** {@code POST drafts/{id}/rebase} {@code {"version"}}: in place, answered with the draft and the merge. */
    ObjectNode rebase(String id, JsonNode req) {
        ObjectNode merge = Rebase.run(drafts, activations.log().revisions(), id, version(req.get("version")), live());
        ObjectNode n = show(id);
        n.set("rebase", merge);
        return n;
    }

    /** {@code POST activations/{seq}/revert}: a new draft, answered with it and the merge. */
    ObjectNode revert(String seq) {
        int n;
        try {
            n = Integer.parseInt(seq);
        } catch (NumberFormatException e) {
            throw new WorkbenchException(404, "unknown_activation", "there is no activation #" + (seq.length() > 20
                    ? seq.substring(0, 20) : seq));
        }
        ObjectNode merge = Revert.run(activations.log(), drafts, n, live());
        ObjectNode out = show(merge.get("draft").asText());
        out.set("revert", merge);
        return out;
    }

    /**
     * Activation of an open, up-to-date draft; the draft is closed when it goes through, and takes
     * no change while the gate decides.
     */
    ObjectNode activate(String id, JsonNode req) {
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
            ObjectNode rec = activations.activate(drafts.files(id), "activate", "draft " + id, options.adminTokenName(),
                    req.path("note").asText(null), req.path("accept_golden_changes").asBoolean(false));
            drafts.activated(id, rec.path("seq").asLong());
            return rec;
        } finally {
            drafts.released(id);
        }
    }

    private BundleFiles live() {
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
