package io.signalman.cli;

import io.signalman.cost.Budgets;
import java.util.HashSet;
import java.util.Set;

/**
 * The cost budgets' flags, the same on every command that compiles or evaluates rules, so that a
 * rule {@code check} admits is a rule {@code serve}'s gate admits (docs/operations.md, "Budgets").
 */
final class BudgetFlags {

    static final Set<String> VALUED = Set.of("max-rule-combinations", "max-rule-steps", "max-decision-mb",
            "max-decision-cpu-ms", "quarantine-after", "check-deadline-s", "max-pack-steps");

    private BudgetFlags() {
    }

    /** {@code valued} with the budget flags added. */
    static Set<String> with(Set<String> valued) {
        Set<String> out = new HashSet<>(valued);
        out.addAll(VALUED);
        return Set.copyOf(out);
    }

    /**
     * Sets this process's budgets from the flags (defaults where absent); {@code longestText} is the
     * longest text a rule can see, the body limit when serving.
     */
    static Budgets apply(Args a, long longestText) throws Args.UsageException {
        Budgets d = Budgets.DEFAULT;
        try {
            Budgets b = new Budgets(a.getLong("max-rule-combinations", d.maxCombinations()),
                    a.getLong("max-rule-steps", d.maxSteps()), longestText,
                    a.getLong("max-decision-mb", d.decisionBytes() / (1024 * 1024)) * 1024 * 1024,
                    a.getLong("max-decision-cpu-ms", d.decisionCpuMs()), a.getInt("quarantine-after", d.quarantineAfter()),
                    a.getInt("check-deadline-s", d.checkSeconds()), a.getLong("max-pack-steps", d.maxPackSteps()));
            Budgets.use(b);
            return b;
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    static Budgets apply(Args a) throws Args.UsageException {
        return apply(a, Budgets.DEFAULT.longestText());
    }
}
