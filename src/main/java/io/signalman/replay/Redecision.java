package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.Map;

/**
 * One recorded decision made again with candidate rules and compared with what it is compared
 * with: the recorded decision, or a baseline bundle's. What is compared is the pack's own fields
 * and the deciding rule; ids, revisions, reasons and the rules that fired may differ. Replay and
 * {@code --accept} both compare through here, so they agree on what "changed" means.
 *
 * @param diff each differing field as {old, new}; null when nothing differs
 * @param baseline the baseline's decision, or null when compared with the recorded one
 */
record Redecision<I, D>(I input, Decision<D> decision, ObjectNode outcome, Map<String, JsonNode[]> diff, String oldRule,
                        String newRule, Decision<D> baseline) {

    static <I, D> Redecision<I, D> of(DecisionPack<I, D> pack, DecisionRecord rec, RuleBundle candidate, RuleBundle baseline)
            throws InputException {
        I input = pack.parseRecord(rec.input(), rec.stateBefore());
        Decision<D> d = pack.decide(candidate, input, false);
        ObjectNode outcome = pack.outcomeJson(d.outcome());
        JsonNode rule = rule(d);
        ObjectNode before;
        JsonNode beforeRule;
        Decision<D> b = null;
        if (baseline == null) {
            before = rec.decision();
            beforeRule = before.get("rule");
        } else {
            b = pack.decide(baseline, input, false);
            before = pack.outcomeJson(b.outcome());
            beforeRule = rule(b);
        }
        Map<String, JsonNode[]> diff = Compare.diff(before, beforeRule, outcome, rule);
        JsonNode oldRule = beforeRule == null ? Json.MAPPER.missingNode() : beforeRule;
        return new Redecision<>(input, d, outcome, diff, text(oldRule), text(rule), b);
    }

    boolean changed() {
        return diff != null;
    }

    /** The rules that fired in what the candidate is compared with: the baseline's decision, or the record's. */
    java.util.List<String> firedBefore(DecisionRecord rec) {
        if (baseline != null) {
            return baseline.evaluation().fired().stream().map(RuleInfo::name).toList();
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        rec.decision().path("rules_fired").forEach(f -> out.add(f.path("rule").asText()));
        return out;
    }

    /**
     * The record as {@code --accept} writes it: the candidate's decision and revision, all else as
     * recorded, {@code state_after} included. That is the state the node stored when it decided:
     * on a single node the decision log is the write-ahead log of state, so a restart on this log
     * rebuilds it, and the key's next record starts from it ({@code state_before}). Accepting
     * says what the candidate decides for the same input; it does not change what happened, so
     * writing the candidate's state there would rebuild a state no client was ever told of and
     * break that chain (and the value a store writes, with its version, is not something
     * replaying a decision computes).
     */
    DecisionRecord accepted(DecisionRecord rec) {
        return new DecisionRecord(rec.decisionId(), rec.at(), rec.pack(), rec.endpoint(), decision.revision(), rec.input(),
                decision.recordJson(outcome), rec.stateBefore(), rec.stateAfter(), rec.trial(), rec.traceId());
    }

    private static JsonNode rule(Decision<?> d) {
        return Compare.rule(d);
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? "(no rule)" : n.asText();
    }
}
