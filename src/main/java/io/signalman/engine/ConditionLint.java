package io.signalman.engine;

import io.signalman.rulelang.Implication;
import io.signalman.rulelang.ReasonNumbers;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * Lint that reads conditions: a deciding rule that can never fire, because a rule
 * of its first-match group tried before it matches whenever it does (for equality, {@code in},
 * prefixes, {@code matches} and numeric ranges), is an error naming both; when the two tie on
 * salience the message says the tie is why. An {@code @reason} quoting a number the rule no
 * longer says is a warning. {@link RuleLint} already reports rules after one that matches
 * everything; those pairs are left to it.
 */
final class ConditionLint {

    private final PackDefinition pack;
    private final List<ParsedRule> rules;
    private final List<BundleError> errors;
    private final List<BundleError> warnings;

    ConditionLint(PackDefinition pack, List<ParsedRule> rules, List<BundleError> errors, List<BundleError> warnings) {
        this.pack = pack;
        this.rules = rules;
        this.errors = errors;
        this.warnings = warnings;
    }

    /** Every pair of rules is compared (a pack's rules read once each, see {@link Implication#prepare}). */
    void run() {
        Set<String> always = pack.alwaysPresent();
        java.util.Map<ParsedRule, Implication.Prepared> read = new java.util.IdentityHashMap<>();
        java.util.Set<ParsedRule> everything = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (ParsedRule r : rules) {
            read.put(r, Implication.prepare(r.reading()));
            if (matchesEverything(r, always)) {
                everything.add(r);
            }
        }
        for (ParsedRule lower : rules) {
            for (ParsedRule higher : rules) {
                if (higher != lower && triedFirst(higher.info(), lower.info()) && pack.mayCompete(higher, lower)
                        && !everything.contains(higher) && Implication.implies(read.get(lower), read.get(higher), always)) {
                    errors.add(at(lower.info(), message(higher.info(), lower.info())));
                    break;
                }
            }
            reason(lower);
        }
    }

    /** Both decide in the same first-match group and {@code a} is tried before {@code b}. */
    private static boolean triedFirst(RuleInfo a, RuleInfo b) {
        return a.decides() && b.decides() && a.phaseIndex() == b.phaseIndex()
                && (a.salience() > b.salience() || a.salience() == b.salience() && a.index() < b.index());
    }

    private static String message(RuleInfo a, RuleInfo b) {
        String where = "\"" + a.name() + "\" (" + a.file() + ":" + a.line() + ")";
        if (a.salience() == b.salience()) {
            return "rule \"" + b.name() + "\" can never win: it ties with " + where + " at salience " + b.salience()
                    + ", the tie goes to the rule loaded first, \"" + a.name() + "\", and that rule matches whenever this one does; "
                    + "give \"" + b.name() + "\" a salience above " + a.salience() + ", or remove it";
        }
        return "rule \"" + b.name() + "\" can never fire: whenever it matches, " + where + " matches too and is tried first "
                + "(salience " + a.salience() + " above " + b.salience() + "); give \"" + b.name() + "\" a salience above "
                + a.salience() + " if it is the more specific rule, or remove it";
    }

    private void reason(ParsedRule r) {
        java.util.Optional<BigDecimal> stale = ReasonNumbers.stale(r.info().reason(), r.reading());
        if (stale.isEmpty()) {
            return;
        }
        List<String> tested = ReasonNumbers.tested(r.reading()).stream().map(BigDecimal::toPlainString).distinct().toList();
        warnings.add(at(r.info(), "rule \"" + r.info().name() + "\": its @reason quotes " + stale.get().toPlainString()
                + ", but the rule tests " + String.join(", ", tested)
                + "; update the reason or the condition so the decision log explains what was decided"));
    }

    /** RuleLint's own case: every pattern an unconstrained one of a fact every evaluation holds. */
    private static boolean matchesEverything(ParsedRule r, Set<String> always) {
        return !always.isEmpty() && !r.reading().opaque() && r.reading().patterns().stream()
                .allMatch(p -> p.conditions().isEmpty() && p.source() == null && p.sourceText() == null
                        && always.contains(p.type().substring(p.type().lastIndexOf('.') + 1)));
    }

    private static BundleError at(RuleInfo r, String message) {
        return new BundleError(r.file(), r.line(), r.column(), message);
    }
}
