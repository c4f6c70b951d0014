package io.signalman.decisionlog;

/**
 * The decision log cannot write (a full disk, a failing device): a decision that cannot be logged
 * is not acknowledged. Clients get 503 {@code decision_log_unavailable} with {@code Retry-After};
 * the writer keeps retrying and service resumes by itself when the disk takes writes again.
 */
public final class DecisionLogUnavailable extends RuntimeException {

    public DecisionLogUnavailable(String message) {
        super(message, null, false, false);
    }
}
