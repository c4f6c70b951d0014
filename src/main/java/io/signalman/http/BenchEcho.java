package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /bench/echo}, served only with {@link ServerConfig#benchEndpoints()}: the body read
 * under the same limit as a decision's (413 past it), the same media-type check (415), parsed by
 * the same call into the same tree ({@link Json#parse}, strict UTF-8 and all, so bad JSON is the
 * same 400), and written back as JSON. It is the floor a decision endpoint is measured against:
 * a decision cannot cost less than receiving a JSON body, parsing it and writing a JSON answer.
 *
 * <p>NOTE: it parses on the event loop, outside the guard and with no decision log, on purpose:
 * the hop to a decision thread, admission, the rules and the log are exactly the costs the bench
 * wants to see as the gap between a decision endpoint and this one. That is also why it is never
 * served in production: it answers anyone, unguarded, with work on the event loop.
 */
final class BenchEcho implements ApiModule {

    static final String ECHO = "/bench/echo";

    @Override
    public void routes(Router router, Api api) {
        router.post(ECHO).handler(api.body()).handler(ctx -> echo(ctx, api));
    }

    /** Event loop. */
    private static void echo(RoutingContext ctx, Api api) {
        if (!api.acceptsJson(ctx, false)) {
            return;
        }
        JsonNode tree;
        try {
            tree = Json.parse(Api.bodyBytes(ctx));
        } catch (InputException e) {
            Responses.error(ctx, ApiError.from(e));
            return;
        }
        Responses.json(ctx, 200, tree);
    }
}
