package io.signalman.crash;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One request the load sent: what it was (so it can be sent again, byte for byte, with its
 * idempotency key) and, once answered, the answer. {@code key} is null for a request without one;
 * a broker message's key is its own {@code "id"}, sent in the body.
 */
final class Op {

    enum Kind { BROKER, DISPATCH, SIGNALS, FSM_CREATE, FSM_ACTION, CONVERSATION_CREATE, TURN, USER_INPUT }

    final Kind kind;
    final String path;
    final String body;
    /** The Idempotency-Key header, or null. */
    final String header;
    /** Whether the request is keyed at all (a header, or a broker message's id). */
    final boolean keyed;
    final Entity entity;
    volatile int status = -1;
    volatile String answer;

    Op(Kind kind, String path, String body, String header, boolean keyed, Entity entity) {
        this.kind = kind;
        this.path = path;
        this.body = body;
        this.header = header;
        this.keyed = keyed;
        this.entity = entity;
    }

    boolean answered() {
        return status > 0;
    }

    /** Answered with a decision or a refusal the server stands by (not a 5xx). */
    boolean acknowledged() {
        return status > 0 && status < 500;
    }

    /** The decision this answer carries (a decision endpoint's 200 or 409), else null. */
    String decisionId(JsonNode answer) {
        return answer != null && answer.hasNonNull("decision_id") ? answer.get("decision_id").asText() : null;
    }

    /** Counted as what, in the report. */
    String what() {
        return switch (kind) {
            case BROKER, DISPATCH, SIGNALS -> "decision";
            case FSM_CREATE, FSM_ACTION -> "transition";
            case CONVERSATION_CREATE, TURN, USER_INPUT -> "turn";
        };
    }
}
