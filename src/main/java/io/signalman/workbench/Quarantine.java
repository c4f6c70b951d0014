package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.signalman.decisions.Breaches;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Goes back to the last good revision when the live one keeps breaking its decision budget
 * ({@link Breaches}): an activation of kind {@code quarantine}, made by the server itself through
 * the same path as an operator's emergency rollback (the gate, the activation history, the audit
 * log as {@code quarantined}). The last good revision is the one live before the quarantined
 * revision was activated, passing over any revision quarantined before.
 *
 * <p>NOTE: the golden history's changes are accepted, as the operator's rollback may: the revision
 * gone back to was live before, and its answers are the ones that held then. Runs on the
 * quarantine's own thread, never a decision worker.
 */
final class Quarantine {

    private static final Logger LOG = LoggerFactory.getLogger(Quarantine.class);
    /** Who the activation record and the audit log name: the server, acting as an operator. */
    static final Principal SERVER = new Principal("signalman", EnumSet.of(Role.OPERATOR), "quarantine");

    private final Engine engine;
    private final Activations activations;

    Quarantine(Engine engine, Activations activations) {
        this.engine = engine;
        this.activations = activations;
    }

    void apply(Breaches.Breach b) {
        String live = engine.current().map(RuleBundle::revision).orElse(null);
        if (!b.revision().equals(live)) {
            LOG.info("rules {} are no longer live; nothing to quarantine", b.revision());
            return;
        }
        String good = lastGood(b.revision());
        if (good == null) {
            LOG.error("rules {} keep breaking their decision budget (suspect: {}), and no earlier revision was activated "
                    + "here to go back to: those decisions go on answering 503 evaluation_too_costly; activate a fix or "
                    + "loosen the budget", b.revision(), b.suspectWords());
            return;
        }
        String note = "quarantined by the server: " + b.count() + " " + b.pack() + " decisions within a minute went over "
                + "their budget (" + b.why() + "); suspect: the pack's costliest rule " + b.suspectWords();
        activations.activate(activations.log().revision(good), "quarantine", "revision " + good, SERVER, note, true,
                Json.object().put("quarantined_revision", b.revision()).put("pack", b.pack())
                        .put("suspect_rule", b.suspect() == null ? null : b.suspect().name()).put("breaches", b.count()),
                "quarantined");
        LOG.error("rules {} quarantined: back to {} ({})", b.revision(), good, note);
    }

    /** The revision live before {@code revision} was activated, passing over quarantined ones; null when none. */
    private String lastGood(String revision) {
        ArrayNode history = activations.log().history();
        Set<String> bad = new HashSet<>();
        bad.add(revision);
        for (JsonNode n : history) {
            if (n.path("kind").asText().equals("quarantine")) {
                bad.add(n.path("quarantined_revision").asText());
            }
        }
        String wanted = revision;
        for (int i = history.size() - 1; i >= 0; i--) {
            JsonNode n = history.get(i);
            if (n.path("new_revision").asText().equals(wanted)) {
                String before = n.path("old_revision").asText(null);
                if (before == null || !bad.contains(before)) {
                    return before;
                }
                wanted = before; // that one was bad too: look for what was live before it
            }
        }
        return null;
    }
}
