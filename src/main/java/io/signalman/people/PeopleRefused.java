package io.signalman.people;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A request refused for a reason about people: who is asking (401, 403), what they may do (403),
 * what they ask for (400 naming the field, 404, 409 {@code approval_required}), or too many failed
 * tries from their address (429, with the seconds to wait). The message never holds a token.
 */
public final class PeopleRefused extends RuntimeException {

    private final int status;
    private final String code;
    private final transient ObjectNode details;
    private final long retryAfterSeconds;

    public PeopleRefused(int status, String code, String message) {
        this(status, code, message, null, 0);
    }

    public PeopleRefused(int status, String code, String message, ObjectNode details) {
        this(status, code, message, details, 0);
    }

    public PeopleRefused(int status, String code, String message, ObjectNode details, long retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.details = details;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** More about the refusal (the field at fault, the approvals there are), or null. */
    public ObjectNode details() {
        return details;
    }

    /** For a 429: how long the client should wait; 0 otherwise. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
