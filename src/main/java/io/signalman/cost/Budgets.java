package io.signalman.cost;

/**
 * What one rule may cost at most, judged at check from its text and the pack's known facts
 * ({@link CostModel}), and what one decision may cost at most on its worker, measured while it
 * runs (the engine's watchdog). Every command that compiles rules ({@code check}, {@code test},
 * {@code replay}, {@code serve}, with its gate, drafts and trials) judges them by the same budgets.
 *
 * @param maxCombinations the most combinations of facts a rule's patterns can form
 *                        ({@code --max-rule-combinations})
 * @param maxSteps        the most steps a rule can take for one decision: every condition tested
 *                        on every combination, a {@code matches} pattern counting its compiled size
 *                        times the longest text ({@code --max-rule-steps})
 * @param longestText     the longest text a rule can see: the request body limit
 *                        ({@code --body-limit} when serving)
 * @param decisionBytes   the most a decision may allocate on its worker ({@code --max-decision-mb})
 * @param decisionCpuMs   the most CPU time a decision may take on its worker ({@code --max-decision-cpu-ms})
 * @param quarantineAfter how many live decisions of one revision stopped over budget within a minute
 *                        make the server go back to the last good revision ({@code --quarantine-after};
 *                        0: never)
 * @param maxPackSteps    the most steps a pack's rules together can take for one decision
 *                        ({@code --max-pack-steps}): every rule's constraints are tested on every decision
 * @param checkSeconds    how long one check of a bundle may take ({@code check}, the gate, a draft's save
 *                        or opening) before it answers "too complex to check" ({@code --check-deadline-s})
 */
public record Budgets(long maxCombinations, long maxSteps, long longestText, long decisionBytes, long decisionCpuMs,
                      int quarantineAfter, int checkSeconds, long maxPackSteps) {

    /**
     * The defaults. No shipped rule joins reference facts or uses {@code matches}: each forms one
     * combination, and the costliest (a published test on the subtype) is priced at the body limit,
     * about 65,000 steps; a shipped decision takes microseconds. The
     * rule budgets leave room for a join of a message and three unpinned card patterns (26^3 =
     * 17,576), or a pattern of about 700 steps a character on the message; the decision budgets for
     * anything that does not run away.
     */
    public static final Budgets DEFAULT = new Budgets(100_000, 50_000_000, 64 * 1024, 256L * 1024 * 1024, 2_000, 3, 120,
            500_000_000);

    private static volatile Budgets current = DEFAULT;

    public Budgets {
        if (maxCombinations < 1 || maxSteps < 1 || longestText < 1 || decisionBytes < 1024 * 1024 || decisionCpuMs < 10
                || quarantineAfter < 0 || checkSeconds < 1 || maxPackSteps < 1) {
            throw new IllegalArgumentException("a budget must be positive, a decision's at least 1 MB and 10 ms, "
                    + "--quarantine-after 0 or more and --check-deadline-s 1 or more");
        }
    }

    /**
     * The budgets of this process. NOTE: a process-wide setting rather than a parameter of every
     * compile: the CLI sets it once from its flags, before anything compiles, and every path that
     * compiles or evaluates rules (the gate, drafts, trials, replay) must judge by the same
     * budgets, which one setting guarantees and a parameter threaded through each would not.
     */
    public static Budgets current() {
        return current;
    }

    public static void use(Budgets budgets) {
        current = java.util.Objects.requireNonNull(budgets);
    }

    public Budgets withLongestText(long chars) {
        return new Budgets(maxCombinations, maxSteps, chars, decisionBytes, decisionCpuMs, quarantineAfter, checkSeconds,
                maxPackSteps);
    }
}
