package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** The handoff pack's endpoints and event-bus addresses. */
final class HandoffApi implements ApiModule {

    static final String CONVERSATIONS = "/v1/handoff/conversations";
    static final String TURN_ADDRESS = "signalman.handoff.turn";
    static final String CREATE_ADDRESS = "signalman.handoff.conversations";

    @Override
    public void routes(Router router, Api api) {
        router.post(CONVERSATIONS).handler(api.body()).handler(ctx -> work(api, ctx, 201,
                c -> c.create(body(ctx))));
        router.get(CONVERSATIONS + "/:id").handler(ctx -> work(api, ctx, 200, c -> c.get(id(ctx))));
        router.post(CONVERSATIONS + "/:id/turns").handler(api.body()).handler(ctx -> work(api, ctx, 200,
                c -> c.turn(id(ctx), body(ctx), Api.explain(ctx), Api.whyNot(ctx))));
        router.post(CONVERSATIONS + "/:id/user-input").handler(api.body()).handler(ctx -> work(api, ctx, 200,
                c -> c.userInput(id(ctx), Api.bodyBytes(ctx).length == 0 ? null : body(ctx))));
    }

    /** The turn address takes the endpoint's JSON plus {@code conversation_id}; create takes the same JSON as HTTP. */
    @Override
    public void addresses(Api api) {
        HandoffConversations c = conversations(api);
        api.reply(TURN_ADDRESS, (in, explain) -> Json.bytes(c.turn(null, Json.parse(in), explain)));
        api.reply(CREATE_ADDRESS, (in, explain) -> Json.bytes(c.create(Json.parse(in))));
    }

    @FunctionalInterface
    private interface Work {
        JsonNode apply(HandoffConversations conversations) throws Exception;
    }

    private void work(Api api, RoutingContext ctx, int status, Work work) {
        if (!api.acceptsJson(ctx, false)) {
            return;
        }
        HandoffConversations c = conversations(api);
        api.blocking(ctx, status, () -> Json.bytes(work.apply(c)));
    }

    private static HandoffConversations conversations(Api api) {
        return new HandoffConversations(api.decisions());
    }

    private static String id(RoutingContext ctx) {
        return ctx.pathParam("id");
    }

    /** Parsed on the worker (inside the work), like every other body. */
    private static JsonNode body(RoutingContext ctx) throws io.signalman.json.InputException {
        return Json.parse(Api.bodyBytes(ctx));
    }
}
