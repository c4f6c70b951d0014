package io.signalman.engine;

/**
 * An evaluation went over its budget (memory allocated or CPU time, {@code io.signalman.cost.Budgets})
 * and its thread was stopped by the watchdog: a rule costs more than the cost model at check
 * estimated. Nothing was changed; the session it ran in is discarded. Live decisions answer 503
 * {@code evaluation_too_costly}; a draft's Try, impact or scenarios answer 422.
 */
public final class EvaluationTooCostlyException extends RuntimeException {

    public EvaluationTooCostlyException(String why) {
        super("the rules were stopped: " + (why == null ? "they went over their budget" : why)
                + "; nothing was changed", null, false, false);
    }
}
