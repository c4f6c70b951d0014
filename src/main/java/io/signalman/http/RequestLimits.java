package io.signalman.http;

import java.time.Duration;

/**
 * What bounds one request and the server's work as a whole.
 *
 * @param deadlineMs         a request not answered after this long gets 503 {@code deadline_exceeded}
 *                           and its rules are halted
 * @param maxInFlight        requests admitted at once (running or queued for a worker); past it,
 *                           503 {@code overloaded} from the event loop
 * @param idempotencyWindow  how long a request's {@code Idempotency-Key} (or message {@code id})
 *                           brings back the first answer
 * @param idempotencyKeys    the most keys remembered at once (oldest forgotten first)
 * @param connections        idle and request timeouts, and the connection cap
 */
public record RequestLimits(long deadlineMs, int maxInFlight, Duration idempotencyWindow, int idempotencyKeys,
                            ConnectionLimits connections) {

    public RequestLimits {
        if (deadlineMs <= 0 || maxInFlight <= 0 || idempotencyKeys < 0 || idempotencyWindow.isNegative()) {
            throw new IllegalArgumentException("deadline and in-flight bound must be positive, the window and keys not negative");
        }
        java.util.Objects.requireNonNull(connections, "connections");
    }

    /** With the default connection limits. */
    public RequestLimits(long deadlineMs, int maxInFlight, Duration idempotencyWindow, int idempotencyKeys) {
        this(deadlineMs, maxInFlight, idempotencyWindow, idempotencyKeys, ConnectionLimits.defaults());
    }

    public static RequestLimits defaults() {
        return new RequestLimits(2000, 256, Duration.ofMinutes(10), 100_000);
    }

    public RequestLimits withDeadlineMs(long ms) {
        return new RequestLimits(ms, maxInFlight, idempotencyWindow, idempotencyKeys, connections);
    }

    public RequestLimits withMaxInFlight(int n) {
        return new RequestLimits(deadlineMs, n, idempotencyWindow, idempotencyKeys, connections);
    }

    public RequestLimits withIdempotency(Duration window, int keys) {
        return new RequestLimits(deadlineMs, maxInFlight, window, keys, connections);
    }

    public RequestLimits withConnections(ConnectionLimits c) {
        return new RequestLimits(deadlineMs, maxInFlight, idempotencyWindow, idempotencyKeys, c);
    }

    @Override
    public String toString() {
        return "deadline=" + deadlineMs + "ms max-in-flight=" + maxInFlight + " idempotency-window="
                + idempotencyWindow.toSeconds() + "s idempotency-keys=" + idempotencyKeys + " " + connections;
    }
}
