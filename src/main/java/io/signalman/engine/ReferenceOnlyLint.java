package io.signalman.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.ForallDescr;
import org.drools.drl.ast.descr.NotDescr;
import org.drools.drl.ast.descr.PatternDescr;

/**
 * A rule must match something of the decision it is asked for. Reference facts (an org chart's
 * cards) are inserted once, when a pooled session is made, and stay; a decision's own facts come
 * and go. A rule whose positive patterns are all reference facts, or that has none, matches once
 * per session: it decides the first message a session sees and none after, so one message decided
 * twice can get two answers. Such a rule is warned about, at its line, with the fix. A warning, not
 * an error: it is the one way the rule language lets a rule decide differently for one message,
 * and the determinism check of replay and the reload gate is tested with such a rule
 * (src/test/resources/nondeterministic-rules); the gate, which checks every record, refuses it
 * when the history it replays reaches it.
 */
final class ReferenceOnlyLint {

    private ReferenceOnlyLint() {
    }

    /** The warnings: one per rule that matches only reference data, or nothing. */
    static List<BundleError> check(List<ParsedRule> rules, ReferenceData reference) {
        Set<String> referenceTypes = new HashSet<>();
        for (Object fact : reference.facts()) {
            referenceTypes.add(fact.getClass().getSimpleName());
        }
        List<BundleError> errors = new ArrayList<>();
        for (ParsedRule r : rules) {
            List<String> positive = new ArrayList<>();
            if (r.descr().getLhs() != null) {
                positiveTypes(r.descr().getLhs(), positive);
            }
            if (positive.stream().allMatch(t -> t != null && referenceTypes.contains(simple(t)))) {
                RuleInfo info = r.info();
                errors.add(new BundleError(info.file(), info.line(), info.column(), "rule \"" + info.name() + "\" "
                        + (positive.isEmpty() ? "has no pattern" : "matches only reference data (" + String.join(", ",
                        positive.stream().map(ReferenceOnlyLint::simple).distinct().toList()) + ")")
                        + ", which stays in a session from one decision to the next, so it would fire for the first"
                        + " message a session decides and never again; add a pattern of the message, e.g. what it reads"
                        + " from the input"));
            }
        }
        return errors;
    }

    /** The object types of the patterns that must be present for the rule to match ({@code not} and {@code forall} are tests of absence). */
    private static void positiveTypes(BaseDescr d, List<String> out) {
        if (d instanceof NotDescr || d instanceof ForallDescr) {
            return;
        }
        if (d instanceof PatternDescr p) {
            // A pattern over a source (from, accumulate, collect) reads what its source gives: the
            // message's parts or an aggregate, never counted as reference data alone.
            // message's parts or an aggregate, never counted as reference data alone (null).
            out.add(p.getSource() == null ? p.getObjectType() : null);
            return;
        }
        if (d instanceof ConditionalElementDescr ce) {
            for (BaseDescr child : ce.getDescrs()) {
                positiveTypes(child, out);
            }
        }
    }

    private static String simple(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }
}
