package io.signalman.engine;

import io.signalman.engine.explain.Explainer;
import io.signalman.engine.explain.RuleCheck;
import io.signalman.json.WireName;
import java.util.List;

/**
 * The result of one evaluation: the pack's outcome, the rules that fired in firing order, the rule
 * that decided (null when no first-match rule matched), and, when asked for, the explanation with
 * the explainer that can say, for any rule, which constraint failed (both null otherwise).
 */
public record Evaluation<R>(R outcome, List<RuleInfo> fired, RuleInfo decidedBy, List<Considered> explain,
                            Explainer explainer) {

    public Evaluation(R outcome, List<RuleInfo> fired, RuleInfo decidedBy, List<Considered> explain) {
        this(outcome, fired, decidedBy, explain, null);
    }

    /** The same evaluation around a pack's own outcome type. */
    public <S> Evaluation<S> withOutcome(S other) {
        return new Evaluation<>(other, fired, decidedBy, explain, explainer);
    }

    /** The explanation line of one rule, by name; null when not explaining or no such rule. */
    public Considered considered(String rule) {
        if (explain == null) {
            return null;
        }
        return explain.stream().filter(c -> c.rule().name().equals(rule)).findFirst().orElse(null);
    }

    /** How a rule of the pack took part in one evaluation. */
    public enum Status implements WireName {
        FIRED,
        MATCHED_BUT_CANCELLED,
        NOT_MATCHED;

        /** Its words joined by hyphens: {@code matched-but-cancelled}. */
        @Override
        public String wire() {
            return WireName.super.wire().replace('_', '-');
        }
    }

    /**
     * One line of an explanation.
     *
     * @param check for a rule that did not match, its conditions against the decision's facts
     *              (which constraint failed and what it saw); null for the others
     */
    public record Considered(RuleInfo rule, Status status, RuleCheck check) {
    }
}
