package io.signalman.trials;

/**
 * How trials run on a node.
 *
 * @param threads           the trial's own workers (the shadow's candidate decisions, comparisons, invariants)
 * @param queue             work waiting for them; past it, work is dropped and counted
 * @param logQueue          trial-log lines waiting for its writer; past it, lines are dropped and counted
 * @param rollBytes         a trial-log file is rolled (and compressed) at this size
 * @param keepFiles         trial-log files kept; the oldest goes past it
 * @param tickMillis        how often a node looks at the shared trial, publishes its figures and checks the limits
 * @param candidateBudgetMs the longest a candidate decision may take (inline, at most half of what is left of the
 *                          request's deadline as well)
 */
public record TrialOptions(int threads, int queue, int logQueue, long rollBytes, int keepFiles, long tickMillis,
                           long candidateBudgetMs) {

    public TrialOptions {
        if (threads < 1 || queue < 1 || logQueue < 1 || rollBytes < 1 || keepFiles < 1 || tickMillis < 1 || candidateBudgetMs < 1) {
            throw new IllegalArgumentException("every trial option must be positive");
        }
    }

    /** Half the cores for the trial's workers, 10,000 queued, 16 MiB log files, 32 kept, a 100 ms tick. */
    public static TrialOptions defaults(long deadlineMs) {
        return new TrialOptions(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), 10_000, 50_000,
                16L * 1024 * 1024, 32, 100, Math.max(1, deadlineMs));
    }
}
