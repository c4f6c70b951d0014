package io.signalman.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.StorageUnavailable;
import io.signalman.engine.DeadlineExceededException;
import io.signalman.engine.NoBundleException;
import io.signalman.engine.Refused;
import io.signalman.engine.RunawayRulesException;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.state.StateFull;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An error as the client sees it: {@code {"error": "<code>", "message": "...", "details": ...}}
 * with a precise status. Every failure of a request maps to one of these here, in one place.
 */
public record ApiError(int status, String code, String message, ObjectNode details) {

    private static final Logger LOG = LoggerFactory.getLogger(ApiError.class);

    /** An error already mapped (and logged) on the worker, carried to where it is answered. */
    static final class Raised extends RuntimeException {
        private final transient ApiError error;

        Raised(ApiError error) {
            super(error.message(), null, false, false);
            this.error = error;
        }
    }

    static final ApiError OVERLOADED = of(503, "overloaded",
            "the server is at its bound of requests in flight; retry after the Retry-After delay");

    /** The evaluation itself stopped at the deadline, before anything was committed or logged. */
    static final ApiError DEADLINE = of(503, "deadline_exceeded",
            "the request ran past its deadline; its rules were stopped and nothing was changed");

    /**
     * Answered by the deadline's timer while the worker was still busy: whether the request
     * still took effect is not known when this is sent, so it does not claim either.
     */
    static final ApiError DEADLINE_UNANSWERED = of(503, "deadline_exceeded",
            "the request ran past its deadline and was answered before its evaluation ended, so it may still take effect");

    public static ApiError of(int status, String code, String message) {
        return new ApiError(status, code, message, null);
    }

    /** Maps what went wrong while deciding to a status; only our own faults become 5xx. */
    public static ApiError from(Throwable t) {
        Throwable e = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        if (e instanceof Raised r) {
            return r.error;
        }
        if (e instanceof DeadlineExceededException) {
            return DEADLINE;
        }
        if (e instanceof io.signalman.engine.EvaluationTooCostlyException) {
            return of(503, "evaluation_too_costly", e.getMessage());
        }
        if (e instanceof io.signalman.people.PeopleRefused p) {
            return new ApiError(p.status(), p.code(), p.getMessage(), p.details());
        }
        if (e instanceof InputException ie) {
            ObjectNode details = Json.object();
            details.put("field", ie.field());
            return new ApiError(400, ie.malformed() ? "malformed_json" : "invalid_input", ie.getMessage(), details);
        }
        if (e instanceof Refused r) {
            int status = switch (r.kind()) {
                case NOT_FOUND -> 404;
                case CONFLICT -> 409;
                case UNPROCESSABLE -> 422;
                case UNAUTHENTICATED -> 401;
                case FORBIDDEN -> 403;
                case GONE -> 410;
            };
            return new ApiError(status, r.code(), r.getMessage(), r.details());
        }
        if (e instanceof StateFull) {
            return of(507, "state_full", e.getMessage());
        }
        if (e instanceof StorageUnavailable) {
            return of(503, "storage_unavailable", e.getMessage());
        }
        if (e instanceof NoBundleException) {
            return of(503, "not_ready", e.getMessage());
        }
        if (e instanceof io.signalman.control.QuorumLost) {
            return of(503, "quorum_lost", e.getMessage());
        }
        if (e instanceof RunawayRulesException) {
            LOG.error("runaway rules: {}", e.getMessage());
            return of(503, "rules_runaway", e.getMessage());
        }
        LOG.error("a decision failed", e);
        return of(500, "rule_failed", "the rules failed on this input: " + e);
    }

    /** Worth retrying later: the client is told when with {@code Retry-After}. */
    public boolean retryable() {
        return status == 503 || "idempotency_key_in_progress".equals(code);
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("error", code);
        n.put("message", message);
        if (details != null) {
            n.set("details", details);
        }
        return n;
    }
}
