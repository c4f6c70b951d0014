package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.decisions.LogLine;
import io.signalman.engine.Ulid;
import io.signalman.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writing JSON responses, success or error, the same way everywhere. Every error response is
 * counted here ({@link Metrics#rejected}) and logged: a server fault (5xx other than 503) at ERROR
 * with a request id that the client also gets in {@code X-Request-Id}; client errors and 503s
 * (overload, not ready, runaway rules) at DEBUG only, so that a misbehaving client or an overload
 * cannot flood the log; the metrics count them all.
 */
final class Responses {

    private static final Logger LOG = LoggerFactory.getLogger("io.signalman.requests");

    /** The routing-context key under which {@link HttpApi} puts its {@link Metrics}. */
    static final String METRICS = "signalman.metrics";

    private Responses() {
    }

    static void json(RoutingContext ctx, int status, byte[] body) {
        send(ctx, status, body, status >= 400 ? errorCode(body) : null, null);
    }

    static void json(RoutingContext ctx, int status, JsonNode body) {
        json(ctx, status, Json.bytes(body));
    }

    static void error(RoutingContext ctx, ApiError e) {
        if (e.retryable()) {
            ctx.response().putHeader("retry-after", "1");
        }
        send(ctx, e.status(), Json.bytes(e.toJson()), e.code(), e.message());
    }

    private static void send(RoutingContext ctx, int status, byte[] body, String code, String message) {
        if (ctx.response().ended()) {
            return;
        }
        if (status >= 400) {
            rejected(ctx, status, code == null ? "unknown" : code, message);
        }
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(Buffer.buffer(body));
    }

    private static void rejected(RoutingContext ctx, int status, String code, String message) {
        Metrics metrics = ctx.get(METRICS);
        if (metrics != null) {
            metrics.rejected(status, code);
        }
        if (status >= 500 && status != 503) {
            String id = ctx.request().getHeader("x-request-id");
            id = id == null || id.length() > 128 ? Ulid.next() : id;
            ctx.response().putHeader("x-request-id", id);
            LOG.error(LogLine.of("request failed").kv("request_id", id).kv("method", ctx.request().method().name())
                    .kv("route", ctx.currentRoute() == null ? null : ctx.currentRoute().getName()).kv("status", Integer.toString(status))
                    .kv("error", code).kv("message", message).toString());
        } else if (LOG.isDebugEnabled()) {
            LOG.debug(LogLine.of("request refused").kv("method", ctx.request().method().name()).kv("path", ctx.request().path())
                    .kv("status", Integer.toString(status)).kv("error", code).toString());
        }
    }

    /**
     * The {@code error} code of an error body written as a whole (an FSM refusal is a decision
     * carrying one). Only error responses are read, and only up to the first top-level field
     * named {@code error}: microseconds on the event loop, for a counter with a precise label.
     */
    private static String errorCode(byte[] body) {
        return Json.topLevelString(body, "error");
    }
}
