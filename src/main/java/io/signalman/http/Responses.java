package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/** Writing JSON responses, success or error, the same way everywhere. */
final class Responses {

    private Responses() {
    }

    static void json(RoutingContext ctx, int status, byte[] body) {
        if (ctx.response().ended()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(Buffer.buffer(body));
    }

    static void json(RoutingContext ctx, int status, JsonNode body) {
        json(ctx, status, Json.bytes(body));
    }

    static void error(RoutingContext ctx, ApiError e) {
        if (e.retryable()) {
            ctx.response().putHeader("retry-after", "1");
        }
        json(ctx, e.status(), e.toJson());
    }
}
