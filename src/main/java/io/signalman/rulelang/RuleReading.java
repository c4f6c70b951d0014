package io.signalman.rulelang;

import java.util.List;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * A rule as the rule reader understood it: Drools' own parse ({@code descr}), its patterns with
 * their constraints parsed as expressions, and the decision calls of its consequence.
 *
 * @param opaque true when the condition holds something beyond patterns of constraints (an
 *               {@code eval}, {@code not}, {@code or}...), so it cannot be compared with other
 *               rules' conditions
 */
public record RuleReading(RuleDescr descr, List<PatternReading> patterns, List<DecideCall> decisions, boolean opaque) {

    public RuleReading {
        patterns = List.copyOf(patterns);
        decisions = List.copyOf(decisions);
    }

    public String name() {
        return descr.getName();
    }

    /** Calls of one decision method, in order. */
    public List<DecideCall> calls(String method) {
        return decisions.stream().filter(d -> d.method().equals(method)).toList();
    }
}
