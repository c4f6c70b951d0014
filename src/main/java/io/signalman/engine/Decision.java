package io.signalman.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.explain.RuleCheck;
import io.signalman.json.Json;

/**
 * A pack's decision with the metadata every decision carries: a sortable id, the bundle
 * revision it was made with, the deciding rule and its reason, and every rule that fired.
 */
public record Decision<D>(String decisionId, String pack, String revision, D outcome, Evaluation<D> evaluation) {

    public RuleInfo decidedBy() {
        return evaluation.decidedBy();
    }

    /**
     * The response body: the id, the pack's own fields, then the metadata, then the explanation
     * when one was asked for.
     */
    public ObjectNode toJson(ObjectNode outcomeFields) {
        ObjectNode out = Json.object();
        out.put("decision_id", decisionId);
        out.setAll(recordJson(outcomeFields));
        out.put("rules_revision", revision);
        if (evaluation.explain() != null) {
            RuleInfo by = evaluation.decidedBy();
            ArrayNode explain = out.putArray("explain");
            for (Evaluation.Considered c : evaluation.explain()) {
                ObjectNode line = ruleJson(c.rule());
                line.put("salience", c.rule().salience());
                line.put("group", c.rule().agendaGroup());
                line.put("status", c.status().wire());
                line.put("why", why(c, by));
                if (c.check() != null && c.check().failed() != null) {
                    line.set("failed", c.check().failed().toJson());
                }
                explain.add(line);
            }
        }
        return out;
    }

    /**
     * The answer to {@code why_not=<rule>}: where the rule is, how it took part, and every one of
     * its constraints against this decision's facts with the values they read. Null when the
     * decision was made without explanation or the pack has no such rule.
     */
    public ObjectNode whyNotJson(String rule) {
        Evaluation.Considered c = evaluation.considered(rule);
        if (c == null || evaluation.explainer() == null) {
            return null;
        }
        RuleCheck check = evaluation.explainer().check(rule);
        ObjectNode n = ruleJson(c.rule());
        n.put("status", c.status().wire());
        n.put("why", why(c, evaluation.decidedBy()));
        n.setAll(check.toJson());
        return n;
    }

    /**
     * The {@code decision} of a decision-log record: the pack's fields, the deciding rule, its
     * reason and the rules that fired (the id and revision sit beside it in the record).
     */
    public ObjectNode recordJson(ObjectNode outcomeFields) {
        ObjectNode out = Json.object();
        out.setAll(outcomeFields);
        RuleInfo by = evaluation.decidedBy();
        out.put("rule", by == null ? null : by.name());
        out.put("reason", by == null ? null : by.reason());
        ArrayNode fired = out.putArray("rules_fired");
        for (RuleInfo r : evaluation.fired()) {
            fired.add(ruleJson(r));
        }
        return out;
    }

    /** One line of an explanation in the analyst's own words (the rules' {@code @reason}s). */
    public static String why(Evaluation.Considered c, RuleInfo decidedBy) {
        String reason = c.rule().reason() == null ? "its condition" : c.rule().reason();
        return switch (c.status()) {
            case FIRED -> (c.rule().decides() ? "decided: " : "added: ") + reason;
            case MATCHED_BUT_CANCELLED -> "matched (" + reason + "), but \"" + (decidedBy == null ? "another rule"
                    : decidedBy.name()) + "\" was tried first";
            case NOT_MATCHED -> c.check() == null ? "did not match: it applies when " + reason
                    : c.check().holds() ? "did not match, although explain finds every condition true for this input"
                    + " (it applies when " + reason + ")"
                    : "did not match: " + c.check().sentence() + " (it applies when " + reason + ")";
        };
    }

    private ObjectNode ruleJson(RuleInfo r) {
        ObjectNode n = Json.object();
        n.put("rule", r.name());
        n.put("pack", r.pack());
        n.put("file", r.file());
        n.put("line", r.line());
        n.put("reason", r.reason());
        return n;
    }
}
