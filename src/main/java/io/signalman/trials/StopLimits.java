package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.Set;

/**
 * When a trial stops by itself ({@code "stop"} of a trial): more than {@code max_divergence_rate}
 * of the comparisons diverge, any invariant breaks on the candidate ({@code on_invariant_violation}),
 * more than {@code max_candidate_error_rate} of the candidate's decisions fail (a rule throws or
 * runs past its deadline), or the candidate's p99 passes {@code max_candidate_p99_ms}. The rates
 * and the p99 are judged once {@code min_decisions} comparisons (candidate decisions, for its
 * errors and latency) were made, so a handful of early requests cannot stop a trial. A limit
 * left out is not checked; a trial without {@code stop} runs until it is stopped.
 */
record StopLimits(Double maxDivergenceRate, long minDecisions, boolean onInvariantViolation, Double maxCandidateErrorRate,
                  Double maxCandidateP99Ms) {

    static final long DEFAULT_MIN_DECISIONS = 100;
    static final StopLimits NONE = new StopLimits(null, DEFAULT_MIN_DECISIONS, false, null, null);
    private static final Set<String> FIELDS = Set.of("max_divergence_rate", "min_decisions", "on_invariant_violation",
            "max_candidate_error_rate", "max_candidate_p99_ms");

    /** Reads {@code stop} strictly; null or absent is no limit at all. */
    static StopLimits parse(JsonNode stop, String prefix) throws InputException {
        if (stop == null || stop.isNull() || stop.isMissingNode()) {
            return NONE;
        }
        Fields f = Fields.of(stop, prefix, FIELDS);
        Long min = f.whole("min_decisions", 1, 1_000_000_000L);
        Boolean invariants = f.bool("on_invariant_violation");
        return new StopLimits(f.number("max_divergence_rate", 0, 1), min == null ? DEFAULT_MIN_DECISIONS : min,
                invariants != null && invariants, f.number("max_candidate_error_rate", 0, 1),
                positive(f, "max_candidate_p99_ms"));
    }

    private static Double positive(Fields f, String field) throws InputException {
        Double d = f.number(field, 0, 600_000);
        if (d != null && d <= 0) {
            throw new InputException(f.path(field), field + " must be more than 0 (milliseconds)");
        }
        return d;
    }

    boolean none() {
        return maxDivergenceRate == null && !onInvariantViolation && maxCandidateErrorRate == null && maxCandidateP99Ms == null;
    }

    /** Why the trial must stop now, in words, or null while every limit holds. */
    String tripped(Figures.Totals t) {
        if (onInvariantViolation && t.violations() > 0) {
            return "an invariant broke on the candidate (" + t.firstViolation() + ")";
        }
        if (maxDivergenceRate != null && t.comparisons() >= minDecisions) {
            double rate = t.diverged() / (double) t.comparisons();
            if (rate > maxDivergenceRate) {
                return "the divergence rate " + round(rate) + " (" + t.diverged() + " of " + t.comparisons()
                        + " comparisons) passed max_divergence_rate " + maxDivergenceRate;
            }
        }
        if (maxCandidateErrorRate != null && t.candidateDecisions() >= minDecisions) {
            double rate = t.candidateFailures() / (double) t.candidateDecisions();
            if (rate > maxCandidateErrorRate) {
                return "the candidate's error rate " + round(rate) + " (" + t.candidateFailures() + " of "
                        + t.candidateDecisions() + " decisions threw or ran past their deadline) passed max_candidate_error_rate "
                        + maxCandidateErrorRate;
            }
        }
        if (maxCandidateP99Ms != null && t.candidateDecisions() >= minDecisions && t.candidateP99Ms() > maxCandidateP99Ms) {
            return "the candidate's p99 " + round(t.candidateP99Ms()) + " ms (over " + t.candidateDecisions()
                    + " decisions) passed max_candidate_p99_ms " + maxCandidateP99Ms;
        }
        return null;
    }

    private static double round(double d) {
        return Math.round(d * 10_000) / 10_000.0;
    }

    ObjectNode toJson() {
        ObjectNode n = Json.object();
        if (maxDivergenceRate != null) {
            n.put("max_divergence_rate", maxDivergenceRate);
        }
        n.put("min_decisions", minDecisions);
        n.put("on_invariant_violation", onInvariantViolation);
        if (maxCandidateErrorRate != null) {
            n.put("max_candidate_error_rate", maxCandidateErrorRate);
        }
        if (maxCandidateP99Ms != null) {
            n.put("max_candidate_p99_ms", maxCandidateP99Ms);
        }
        return n;
    }

    /** The stored form back (written by {@link #toJson}: trusted, but read as strictly). */
    static StopLimits fromJson(JsonNode n) {
        try {
            return parse(n, "stop");
        } catch (InputException e) {
            throw new IllegalStateException("a stored trial's stop limits are unreadable: " + e.getMessage(), e);
        }
    }
}
