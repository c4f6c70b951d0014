package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;

/**
 * What the decision service asks of live trials, for every decision it makes: which rules decide
 * (the live rules, and while a trial runs its candidate too), and, once the decision is committed,
 * what its record says of the trial. Both run on the deciding worker thread and return at once:
 * whatever a trial does beyond the answer happens on its own threads.
 */
public interface Arms {

    /**
     * Decides {@code input} for the client: with {@code live} alone when no trial runs; during a
     * trial with the arm the request's key falls in, the other arm's decision made too (inline in
     * a canary, off the request's path in shadow). A candidate that throws or runs past its share of
     * the deadline is answered for by the live rules (a fallback, counted); a live decision that
     * throws throws, as without a trial.
     */
    <I, D> Decision<D> decide(DecisionPack<I, D> pack, RuleBundle live, I input, boolean explain);

    /**
     * {@code decision} is committed (logged, its state change made): the trial's comparison of it
     * goes to the trial's queue, and the decision record's {@code trial} is returned
     * ({@code {"id", "arm"}}), or null when no trial had a part in it.
     */
    JsonNode committed(Decision<?> decision);

    /**
     * What {@link #committed} will say of {@code decision} ({@code {"id", "arm"}}, or null), without
     * committing it: the trial and arm a decision's span names before its record is written.
     */
    JsonNode trialOf(Decision<?> decision);

    /** No trials: the live rules decide everything. */
    Arms NONE = new Arms() {
        @Override
        public <I, D> Decision<D> decide(DecisionPack<I, D> pack, RuleBundle live, I input, boolean explain) {
            return pack.decide(live, input, explain);
        }

        @Override
        public JsonNode committed(Decision<?> decision) {
            return null;
        }

        @Override
        public JsonNode trialOf(Decision<?> decision) {
            return null;
        }
    };
}
