package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import io.signalman.people.Approvals;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code GET /workbench/api/inbox}: what waits for this person, by the roles they hold. An
 * approver: drafts in review they did not write and have not judged as they are now. An operator:
 * drafts with the approvals they need, to activate, and the running trials. An author: their
 * drafts rejected as they are now, with the rejection's note first. {@code counts} is what the tab
 * bar shows.
 */
final class Inbox {

    private final Drafts drafts;
    private final FourEyes fourEyes;
    private final Supplier<BundleFiles> live;
    private volatile Supplier<JsonNode> trials = Json::array;

    Inbox(Drafts drafts, FourEyes fourEyes, Supplier<BundleFiles> live) {
        this.drafts = drafts;
        this.fourEyes = fourEyes;
        this.live = live;
    }

    /** The running trials, for an operator's inbox. */
    void trials(Supplier<JsonNode> running) {
        this.trials = running;
    }

    ObjectNode of(Principal who) {
        String revision = live.get().revision();
        ArrayNode review = Json.array();
        ArrayNode activate = Json.array();
        ArrayNode rejected = Json.array();
        for (String id : drafts.ids()) {
            ObjectNode meta = drafts.meta(id);
            DraftStatus status = DraftStatus.of(meta, revision);
            if (status.closed()) {
                continue;
            }
            String hash = contentHash(id, meta);
            Approvals.Standing standing = fourEyes.standing(id, hash);
            List<String> authors = DraftRecords.authors(meta);
            boolean mine = authors.stream().anyMatch(who::sameAs);
            if (who.has(Role.APPROVER) && status == DraftStatus.IN_REVIEW && !mine
                    && standing.approvals().stream().noneMatch(v -> who.sameAs(v.user()))
                    && standing.rejections().stream().noneMatch(v -> who.sameAs(v.user()))) {
                review.add(item(meta, status, hash, standing));
            }
            if (who.has(Role.OPERATOR) && status != DraftStatus.OUT_OF_DATE && standing.ok()
                    && (!standing.approvals().isEmpty() || status == DraftStatus.IN_REVIEW)) {
                activate.add(item(meta, status, hash, standing));
            }
            if (mine && !standing.rejections().isEmpty()) {
                ObjectNode r = item(meta, status, hash, standing);
                Approvals.Verdict last = standing.rejections().get(standing.rejections().size() - 1);
                r.put("rejected_by", last.user()).put("rejection_note", last.note()).put("rejected_at", last.at());
                rejected.add(r);
            }
        }
        ArrayNode running = who.has(Role.OPERATOR) ? (ArrayNode) trials.get() : Json.array();
        ObjectNode out = Json.object().put("user", who.name());
        who.roleNames().forEach(out.withArray("roles")::add);
        out.set("review", review);
        out.set("activate", activate);
        out.set("rejected", rejected);
        out.set("trials", running);
        out.putObject("counts").put("review", review.size()).put("activate", activate.size()).put("rejected", rejected.size())
                .put("trials", running.size()).put("total", review.size() + activate.size() + rejected.size() + running.size());
        return out;
    }

    /**
     * A draft's content hash, kept by its version: an inbox read by every open page must not hash
     * every draft's files each time (a draft may hold 4 MiB).
     */
    private String contentHash(String id, ObjectNode meta) {
        long version = meta.path("version").asLong(1);
        String[] kept = hashes.get(id);
        if (kept != null && kept[0].equals(Long.toString(version))) {
            return kept[1];
        }
        String hash = drafts.files(id).revision();
        if (hashes.size() > 1_000) {
            hashes.clear();
        }
        hashes.put(id, new String[] {Long.toString(version), hash});
        return hash;
    }

    private final java.util.Map<String, String[]> hashes = new java.util.concurrent.ConcurrentHashMap<>();

    private static ObjectNode item(ObjectNode meta, DraftStatus status, String hash, Approvals.Standing standing) {
        ObjectNode n = Json.object().put("draft", meta.path("id").asText()).put("status", status.wire())
                .put("content_hash", hash).put("created_by", meta.path("created_by").asText(null));
        JsonNode review = meta.get("review");
        if (review != null) {
            n.put("requested_by", review.path("requested_by").asText(null)).put("review_note", review.path("note").asText(null))
                    .put("requested_at", review.path("requested_at").asText(null));
        }
        n.put("approvals", standing.approvals().size()).put("required", standing.required());
        return n;
    }
}
