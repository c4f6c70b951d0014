package io.signalman.decisionlog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.Objects;

/**
 * One line of the decision log, which is also one record of a replay archive:
 * {@code {"decision_id", "at", "pack", "endpoint", "rules_revision", "input", "decision", "state_before"?}}.
 * {@code decision} holds the pack's fields, {@code rule}, {@code reason} and {@code rules_fired}.
 * A decision that changed state also carries {@code state_after} ({@code {"store", "key", "version",
 * "value"}}): the decision log is the write-ahead log of durable state, so a restart rebuilds the
 * state from it (the state package's LocalState does).
 *
 * <p>A decision made while a live trial ran also carries {@code trial}: {@code {"id", "arm"}}, the
 * trial and the arm ({@code live} or {@code candidate}) whose rules made it, beside the revision
 * that made it ({@code rules_revision}), so that replaying the log with each arm's rules
 * ({@code signalman replay --arm}) gives back every decision exactly. Absent outside a trial.
 *
 * <p>A decision made for a request that belongs to a distributed trace carries {@code trace_id}:
 * the W3C trace id (32 lowercase hex digits) of the request's valid {@code traceparent}, or of the
 * trace the server began for it with tracing on, so that a trace and a replay meet. Absent
 * otherwise; replay never reads it.
 */
public record DecisionRecord(String decisionId, String at, String pack, String endpoint, String rulesRevision,
                             JsonNode input, ObjectNode decision, JsonNode stateBefore, JsonNode stateAfter, JsonNode trial,
                             String traceId) {

    /** The arm of a decision made outside any trial: the live rules made it. */
    public static final String LIVE = "live";

    /** A record outside any trace. */
    public DecisionRecord(String decisionId, String at, String pack, String endpoint, String rulesRevision,
                          JsonNode input, ObjectNode decision, JsonNode stateBefore, JsonNode stateAfter, JsonNode trial) {
        this(decisionId, at, pack, endpoint, rulesRevision, input, decision, stateBefore, stateAfter, trial, null);
    }

    /** A record that changed no state (or whose change is not recorded). */
    public DecisionRecord(String decisionId, String at, String pack, String endpoint, String rulesRevision,
                          JsonNode input, ObjectNode decision, JsonNode stateBefore) {
        this(decisionId, at, pack, endpoint, rulesRevision, input, decision, stateBefore, null, null);
    }

    /** A record made outside any live trial. */
    public DecisionRecord(String decisionId, String at, String pack, String endpoint, String rulesRevision,
                          JsonNode input, ObjectNode decision, JsonNode stateBefore, JsonNode stateAfter) {
        this(decisionId, at, pack, endpoint, rulesRevision, input, decision, stateBefore, stateAfter, null);
    }

    /** The arm whose rules made the decision: {@code candidate} in a trial's candidate arm, else {@link #LIVE}. */
    public String arm() {
        return trial == null || !trial.path("arm").isTextual() ? LIVE : trial.get("arm").asText();
    }

    public DecisionRecord {
        Objects.requireNonNull(decisionId, "decisionId");
        Objects.requireNonNull(pack, "pack");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(decision, "decision");
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("decision_id", decisionId);
        n.put("at", at);
        n.put("pack", pack);
        n.put("endpoint", endpoint);
        n.put("rules_revision", rulesRevision);
        n.set("input", input);
        n.set("decision", decision);
        if (stateBefore != null) {
            n.set("state_before", stateBefore);
        }
        if (stateAfter != null) {
            n.set("state_after", stateAfter);
        }
        if (trial != null) {
            n.set("trial", trial);
        }
        if (traceId != null) {
            n.put("trace_id", traceId);
        }
        return n;
    }

    /** Reads one archive line; a wrong shape names the field. */
    public static DecisionRecord fromJson(JsonNode n) throws InputException {
        if (!n.isObject()) {
            throw new InputException("", "a decision record is a JSON object");
        }
        JsonNode decision = n.get("decision");
        if (decision == null || !decision.isObject()) {
            throw new InputException("decision", "a decision record needs a \"decision\" object");
        }
        JsonNode input = n.get("input");
        if (input == null || input.isNull()) {
            throw new InputException("input", "a decision record needs an \"input\"");
        }
        return new DecisionRecord(text(n, "decision_id", true), text(n, "at", false), text(n, "pack", true),
                text(n, "endpoint", false), text(n, "rules_revision", false), input, (ObjectNode) decision,
                n.hasNonNull("state_before") ? n.get("state_before") : null,
                n.hasNonNull("state_after") ? n.get("state_after") : null, n.hasNonNull("trial") ? n.get("trial") : null,
                text(n, "trace_id", false));
    }

    /** The recorded rule that decided, or null. */
    public String rule() {
        JsonNode r = decision.get("rule");
        return r == null || r.isNull() ? null : r.asText();
    }

    private static String text(JsonNode n, String field, boolean required) throws InputException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new InputException(field, "a decision record needs \"" + field + "\"");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new InputException(field, "\"" + field + "\" must be a string");
        }
        return v.asText();
    }
}
