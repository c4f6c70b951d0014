package io.signalman.engine;

import java.util.List;

/**
 * The result of one evaluation: the pack's outcome, the rules that fired in firing order, the rule
 * that decided (null when no first-match rule matched), and, when asked for, the explanation.
 */
public record Evaluation<R>(R outcome, List<RuleInfo> fired, RuleInfo decidedBy, List<Considered> explain) {

    /** How a rule of the pack took part in one evaluation. */
    public enum Status {
        FIRED("fired"),
        MATCHED_BUT_CANCELLED("matched-but-cancelled"),
        NOT_MATCHED("not-matched");

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    /** One line of an explanation. */
    public record Considered(RuleInfo rule, Status status) {
    }
}
