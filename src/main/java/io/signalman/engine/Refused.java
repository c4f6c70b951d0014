package io.signalman.engine;

/**
 * A request the platform understood and refuses, with a precise kind that the transports map to
 * a status in one place (HTTP: 404, 409, 422, 401, 403, 410).
 */
public final class Refused extends RuntimeException {

    /** Why a request is refused. */
    public enum Kind { NOT_FOUND, CONFLICT, UNPROCESSABLE, UNAUTHENTICATED, FORBIDDEN, GONE }

    private final Kind kind;
    private final String code;
    private final transient com.fasterxml.jackson.databind.node.ObjectNode details;

    public Refused(Kind kind, String code, String message) {
        this(kind, code, message, null);
    }

    /** With {@code details} for the client (located bundle errors, say), or null. */
    public Refused(Kind kind, String code, String message, com.fasterxml.jackson.databind.node.ObjectNode details) {
        super(message, null, false, false);
        this.kind = kind;
        this.code = code;
        this.details = details;
    }

    /** What the client is told besides the message, or null. */
    public com.fasterxml.jackson.databind.node.ObjectNode details() {
        return details;
    }

    public Kind kind() {
        return kind;
    }

    public String code() {
        return code;
    }
}
