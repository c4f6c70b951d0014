package io.signalman.http;

import io.micrometer.core.instrument.Counter;
import io.signalman.json.Json;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Enforces {@link ConnectionLimits} on one listener. Every method runs on the event
 * loop of the connection it is about; a connection's timer is only touched there.
 *
 * <p>A connection is either waiting for a request (the idle timer runs), receiving one (the
 * request timer runs from its headers to the end of its body) or busy with it (no timer: the
 * request's own deadline bounds it, and the idle timer starts again once the body is in, re-armed
 * while the response is still being made). Each close the server decides is counted in
 * {@code signalman_connections_closed_total{reason}}.
 */
final class Connections {

    private static final class State {
        long timer = -1;
        HttpServerRequest current;
    }

    private final Vertx vertx;
    private final ConnectionLimits limits;
    private final boolean capped;
    private final AtomicInteger open;
    private final Map<HttpConnection, State> states = new ConcurrentHashMap<>();
    private final Counter idle;
    private final Counter slow;
    private final Counter over;

    /** {@code capped}: whether this listener counts against {@link ConnectionLimits#maxConnections()}. */
    Connections(Vertx vertx, ConnectionLimits limits, boolean capped, AtomicInteger open, Metrics metrics) {
        this.vertx = vertx;
        this.limits = limits;
        this.capped = capped;
        this.open = open;
        String what = "connections the server closed, by reason";
        this.idle = metrics.counter("signalman.connections.closed", what, "reason", "idle");
        this.slow = metrics.counter("signalman.connections.closed", what, "reason", "request_timeout");
        this.over = metrics.counter("signalman.connections.closed", what, "reason", "over_limit");
    }

    /** The listener's connection handler: refuses past the cap, else starts waiting for a request. */
    void opened(HttpConnection c) {
        if (capped && open.incrementAndGet() > limits.maxConnections()) {
            open.decrementAndGet();
            over.increment();
            c.close();
            return;
        }
        State s = new State();
        states.put(c, s);
        c.closeHandler(v -> {
            if (capped) {
                open.decrementAndGet();
            }
            cancel(s);
            states.remove(c);
        });
        waitForRequest(c, s);
    }

    /** Wraps the listener's request handler: a request's body must arrive within the request timeout. */
    Handler<HttpServerRequest> requests(Handler<HttpServerRequest> next) {
        return req -> {
            HttpConnection c = req.connection();
            State s = states.get(c);
            if (s != null) {
                cancel(s);
                s.current = req;
                if (!req.isEnded()) {
                    s.timer = vertx.setTimer(limits.requestTimeoutS() * 1000L, t -> tooSlow(c, s, req));
                    req.end().onComplete(done -> {
                        if (s.current == req) {
                            cancel(s);
                            waitForRequest(c, s);
                        }
                    });
                } else {
                    waitForRequest(c, s);
                }
            }
            next.handle(req);
        };
    }

    private void waitForRequest(HttpConnection c, State s) {
        cancel(s);
        s.timer = vertx.setTimer(limits.idleTimeoutS() * 1000L, t -> {
            s.timer = -1;
            if (s.current != null && !s.current.response().ended() && !s.current.response().closed()) {
                waitForRequest(c, s); // busy making a response, not idle
                return;
            }
            idle.increment();
            c.close();
        });
    }

    private void tooSlow(HttpConnection c, State s, HttpServerRequest req) {
        s.timer = -1;
        if (req.isEnded()) {
            return;
        }
        slow.increment();
        ApiError e = ApiError.of(408, "request_timeout", "the request's body did not arrive within " + limits.requestTimeoutS()
                + " s of its headers");
        if (!req.response().headWritten()) {
            req.response().setStatusCode(e.status()).putHeader("content-type", "application/json").putHeader("connection", "close")
                    .end(Buffer.buffer(Json.bytes(e.toJson()))).onComplete(x -> c.close());
        } else {
            c.close();
        }
    }

    private void cancel(State s) {
        if (s.timer >= 0) {
            vertx.cancelTimer(s.timer);
            s.timer = -1;
        }
    }
}
