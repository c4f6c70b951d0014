package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.http.ApiError;
import io.signalman.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

/** How the workbench answers: JSON bodies and JSON errors, never cached (they show live rules). */
final class Replies {

    private Replies() {
    }

    static void json(RoutingContext ctx, int status, JsonNode body) {
        json(ctx, status, Json.bytes(body));
    }

    static void json(RoutingContext ctx, int status, byte[] body) {
        if (ctx.response().ended() || ctx.response().closed()) {
            return;
        }
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
                .putHeader("cache-control", "no-store").end(Buffer.buffer(body));
    }

    static void error(RoutingContext ctx, int status, String code, String message) {
        json(ctx, status, ApiError.of(status, code, message).toJson());
    }

    static void failure(RoutingContext ctx, Throwable t) {
        Throwable e = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        if (e instanceof WorkbenchException w) {
            json(ctx, w.status(), w.toJson());
        } else if (e instanceof io.signalman.engine.EvaluationTooCostlyException) {
            // A draft's rules (Try, impact) went over their budget: the draft is at fault, not the server.
            error(ctx, 422, "evaluation_too_costly", e.getMessage());
        } else {
            ApiError a = ApiError.from(e);
            json(ctx, a.status(), a.toJson());
        }
    }
}
