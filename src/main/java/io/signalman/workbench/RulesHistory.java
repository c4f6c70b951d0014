package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import io.signalman.people.Principal;
import io.signalman.rulesgit.Identity;
import io.signalman.rulesgit.RulesCommit;
import io.signalman.rulesgit.RulesRepository;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve --rules-git}: each activation this node makes (an activation of a draft, a trial's
 * promotion, a rollback, a revert, a quarantine) committed into the rules folder's Git work tree
 * once it is live and recorded. Only {@link Activations} calls it, on the node where the
 * activation was made: in a cluster the other members load the revision through
 * {@link RulesMirror}, which commits nothing, so an activation is one commit.
 *
 * <p>A commit that fails never undoes or holds up the activation (it is live, journaled and
 * audited already): the failure is logged, counted ({@code signalman.rules.git.commits} with
 * {@code outcome="failed"}) and said in the activation's answer as {@code git.error}.
 */
final class RulesHistory {

    private static final Logger LOG = LoggerFactory.getLogger(RulesHistory.class);

    private final RulesRepository repo;

    RulesHistory(RulesRepository repo) {
        this.repo = repo;
    }

    /**
     * Commits the activation {@code rec} (as journaled) of {@code files}, made by {@code who},
     * recorded in the audit log as {@code audit}. Blocking: the activation's worker. Returns what
     * the answer says: {@code {"commit", "branch"}} or {@code {"error"}}.
     */
    ObjectNode commit(ObjectNode rec, BundleFiles files, Principal who, JsonNode audit) {
        long seq = rec.path("seq").asLong();
        try {
            RulesRepository.Committed c = repo.commit(DraftHandlers.map(files), of(rec, who, audit));
            LOG.info("rules: activation #{} committed to {} as {}{}", seq, repo, c.commit(),
                    c.branch() == null ? " (detached HEAD)" : " on " + c.branch());
            ObjectNode n = Json.object().put("commit", c.commit());
            return c.branch() == null ? n.putNull("branch") : n.put("branch", c.branch());
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            LOG.error("rules: activation #{} is live, but its Git commit into {} failed: {}. The activation stands; the "
                    + "commit is not retried (the next activation's commit holds the folder as it then is)", seq, repo, why);
            return Json.object().put("error", why);
        }
    }

    /** The commit an activation record makes: see {@link RulesCommit}. */
    static RulesCommit of(ObjectNode rec, Principal who, JsonNode audit) {
        List<Identity> authors = new ArrayList<>();
        rec.path("authors").forEach(a -> authors.add(Identity.of(a.asText())));
        Identity committer = Identity.of(who.name());
        Identity author = authors.isEmpty() ? committer : authors.get(0);
        List<String> approvers = new ArrayList<>();
        rec.path("approvals").forEach(a -> approvers.add(a.path("user").asText()));
        String trial = rec.path("trial").path("id").asText(null);
        return new RulesCommit(rec.path("note").asText(""), author, authors.isEmpty() ? List.of() : authors.subList(1,
                authors.size()), committer, approvers, audit == null ? 0 : audit.path("seq").asLong(), trial,
                rec.path("seq").asLong(), rec.path("new_revision").asText(null));
    }
}
