package io.signalman.engine;

import java.util.ArrayList;
import java.util.List;
import org.drools.drl.ast.descr.RuleDescr;

/**
 * The conventions every pack's rules share, checked once the rules are indexed: a
 * deciding rule has a reason and the pack's activation group, an additive one has none; equal
 * saliences that could compete are warned about; a rule tried after one that matches everything
 * can never fire. Errors refuse the bundle; warnings do not.
 */
final class RuleLint {

    private final PackDefinition pack;
    private final List<ParsedRule> parsed;
    private final List<RuleInfo> rules = new ArrayList<>();
    private final List<BundleError> errors;
    private final List<BundleError> warnings;

    RuleLint(PackDefinition pack, List<ParsedRule> parsed, List<BundleError> errors, List<BundleError> warnings) {
        this.pack = pack;
        this.parsed = parsed;
        parsed.forEach(p -> rules.add(p.info()));
        this.errors = errors;
        this.warnings = warnings;
    }

    void run() {
        for (RuleInfo r : rules) {
            shape(pack.phases().get(r.phaseIndex()), r);
        }
        ties();
        shadows();
        MissingFieldLint.check(parsed, errors);
    }

    private void shape(Phase phase, RuleInfo info) {
        if (phase.kind() != Phase.Kind.CLASSIFY && (info.reason() == null || info.reason().isBlank())) {
            errors.add(at(info, "rule \"" + info.name() + "\" can decide but has no @reason; add @reason(\"...\") "
                    + "saying in plain words why it fires"));
        }
        if (phase.kind() == Phase.Kind.FIRST_MATCH && !pack.firstMatchGroup().equals(info.activationGroup())) {
            errors.add(at(info, "rule \"" + info.name() + "\" is a deciding rule of agenda-group \"" + phase.agendaGroup()
                    + "\" but is not in activation-group \"" + pack.firstMatchGroup()
                    + "\"; add activation-group \"" + pack.firstMatchGroup() + "\" so that only one rule decides"));
        }
        if (phase.kind() != Phase.Kind.FIRST_MATCH && info.activationGroup() != null) {
            errors.add(at(info, "rule \"" + info.name() + "\" is in agenda-group \"" + phase.agendaGroup()
                    + "\", which is additive, but has activation-group \"" + info.activationGroup()
                    + "\"; remove it, or move the rule to a deciding agenda-group"));
        }
    }

    /** Equal salience within one deciding tier resolves by load order: legal, but worth a warning. */
    private void ties() {
        for (int i = 0; i < rules.size(); i++) {
            RuleInfo a = rules.get(i);
            if (!a.decides()) {
                continue;
            }
            for (int j = i + 1; j < rules.size(); j++) {
                RuleInfo b = rules.get(j);
                if (b.decides() && b.phaseIndex() == a.phaseIndex() && b.salience() == a.salience()
                        && pack.mayCompete(parsed.get(i), parsed.get(j))) {
                    warnings.add(at(b, "rule \"" + b.name() + "\" has salience " + b.salience() + " like \"" + a.name()
                            + "\" (" + a.file() + ":" + a.line() + "); the tie goes to the one loaded first, \""
                            + a.name() + "\"; give them different saliences to say which wins"));
                }
            }
        }
    }

    /** A deciding rule after one that matches everything can never fire: an error, with the fix. */
    private void shadows() {
        for (int i = 0; i < rules.size(); i++) {
            RuleInfo a = rules.get(i);
            if (!a.decides() || !matchesEverything(parsed.get(i).descr(), pack.alwaysPresent())) {
                continue;
            }
            for (int j = 0; j < rules.size(); j++) {
                RuleInfo b = rules.get(j);
                boolean later = b.phaseIndex() > a.phaseIndex() || b.phaseIndex() == a.phaseIndex()
                        && (b.salience() < a.salience() || b.salience() == a.salience() && b.index() > a.index());
                if (j != i && b.decides() && later && pack.mayCompete(parsed.get(i), parsed.get(j))) {
                    errors.add(at(b, "rule \"" + b.name() + "\" can never fire: \"" + a.name() + "\" (" + a.file() + ":"
                            + a.line() + ") matches everything and is tried first; give \"" + b.name()
                            + "\" a salience above " + a.salience() + (b.phaseIndex() == a.phaseIndex() ? "" : " in a tier before \""
                            + a.agendaGroup() + "\"") + ", or remove it"));
                }
            }
        }
    }

    private static boolean matchesEverything(RuleDescr r, java.util.Set<String> alwaysPresent) {
        if (alwaysPresent.isEmpty() || r.getLhs() == null) {
            return false;
        }
        for (var d : r.getLhs().getDescrs()) {
            if (!(d instanceof org.drools.drl.ast.descr.PatternDescr p) || p.getSource() != null
                    || !alwaysPresent.contains(p.getObjectType()) || !p.getConstraint().getDescrs().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static BundleError at(RuleInfo r, String message) {
        return new BundleError(r.file(), r.line(), r.column(), message);
    }
}
