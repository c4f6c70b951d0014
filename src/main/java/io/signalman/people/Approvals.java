package io.signalman.people;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Four eyes: the approvals and rejections of each draft, read from the audit log (where each is
 * recorded first) and bound to the draft's content hash, the revision of its files when the
 * approver judged it. Any edit changes the hash, so an approval given to other content counts for
 * nothing: it cannot be carried onto an edited draft, nor onto another draft. Each person's
 * latest verdict on the content stands; people are told apart by their names' confusable
 * skeletons ({@link Names}), and a verdict by anyone who wrote the draft never counts.
 */
public final class Approvals {

    public static final String APPROVED = "draft_approved";
    public static final String REJECTED = "draft_rejected";

    /** One verdict as the audit log holds it. */
    public record Verdict(long seq, String user, String via, boolean approve, String contentHash, String at, String note,
                          String impactJob) {
        ObjectNode toJson() {
            return Json.object().put("user", user).put("via", via).put("verdict", approve ? "approved" : "rejected")
                    .put("content_hash", contentHash).put("at", at).put("note", note).put("audit_seq", seq)
                    .put("impact_job", impactJob);
        }
    }

    /**
     * Where a draft's content stands: the approvals that count, the rejections that stand, and
     * verdicts given to other content (which count for nothing).
     */
    public record Standing(int required, String contentHash, List<Verdict> approvals, List<Verdict> rejections,
                           List<Verdict> otherContent) {

        /** Enough approvals, and no standing rejection. */
        public boolean ok() {
            return approvals.size() >= required && rejections.isEmpty();
        }

        public ObjectNode toJson() {
            ObjectNode n = Json.object().put("required", required).put("content_hash", contentHash).put("enough", ok());
            ArrayNode a = n.putArray("approvals");
            approvals.forEach(v -> a.add(v.toJson()));
            ArrayNode r = n.putArray("rejections");
            rejections.forEach(v -> r.add(v.toJson()));
            ArrayNode o = n.putArray("for_other_content");
            otherContent.forEach(v -> o.add(v.toJson()));
            return n;
        }
    }

    private final Map<String, List<Verdict>> byDraft = new ConcurrentHashMap<>();

    /** Takes in an audit entry (every one, at start and as each is appended); only verdicts matter. */
    /** The audit entries taken in, by seq: an entry told twice (at open and as it came) counts once. */
    private final java.util.Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public void accept(JsonNode e) {
        String action = e.path("action").asText();
        if (!APPROVED.equals(action) && !REJECTED.equals(action) || !seen.add(e.path("seq").asLong())) {
            return;
        }
        byDraft.computeIfAbsent(e.path("draft").asText(), k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add(new Verdict(e.path("seq").asLong(), e.path("user").asText(), e.path("via").asText(), APPROVED.equals(action),
                        e.path("content_hash").asText(), e.path("at").asText(), e.path("note").asText(null),
                        e.path("impact_job").asText(null)));
    }

    /** The standing of {@code draft} as it is now ({@code contentHash}), written by {@code authors}, needing {@code required}. */
    public Standing standing(String draft, String contentHash, Collection<String> authors, int required) {
        List<Verdict> all;
        List<Verdict> stored = byDraft.getOrDefault(draft, List.of());
        synchronized (stored) {
            all = new ArrayList<>(stored);
        }
        Map<String, Verdict> latest = new LinkedHashMap<>();
        List<Verdict> other = new ArrayList<>();
        for (Verdict v : all) {
            if (!v.contentHash().equals(contentHash)) {
                other.add(v);
            } else if (authors.stream().noneMatch(a -> Names.sameIdentity(a, v.user()))) {
                latest.remove(Names.skeleton(v.user()));
                latest.put(Names.skeleton(v.user()), v);
            }
        }
        List<Verdict> approvals = latest.values().stream().filter(Verdict::approve).toList();
        List<Verdict> rejections = latest.values().stream().filter(v -> !v.approve()).toList();
        return new Standing(required, contentHash, approvals, rejections, other);
    }
}
