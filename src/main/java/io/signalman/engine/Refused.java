package io.signalman.engine;

/**
 * A request the platform understood and refuses, with a precise kind that the transports map to
 * a status in one place (HTTP: 404, 409, 422, 401, 403).
 */
public final class Refused extends RuntimeException {

    /** Why a request is refused. */
    public enum Kind { NOT_FOUND, CONFLICT, UNPROCESSABLE, UNAUTHENTICATED, FORBIDDEN }

    private final Kind kind;
    private final String code;

    public Refused(Kind kind, String code, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.code = code;
    }

    public Kind kind() {
        return kind;
    }

    public String code() {
        return code;
    }
}
