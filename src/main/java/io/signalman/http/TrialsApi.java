package io.signalman.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.signalman.people.Role;
import io.signalman.trials.Trials;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Live trials, an operator's endpoints (reading them is a viewer's): the routes only, the work is the trials'
 * ({@link Trials}). Starting and promoting compile a bundle (promoting replays the golden history
 * too), so they run outside the guard on the reload thread, as a reload does.
 */
final class TrialsApi implements ApiModule {

    static final String TRIALS = "/v1/trials";
    static final String TRIAL = TRIALS + "/:id";

    private final Trials trials;

    TrialsApi(Trials trials) {
        this.trials = trials;
    }

    @Override
    public void routes(Router router, Api api) {
    }

    @Override
    public void adminRoutes(Router router, Api api) {
        router.post(TRIALS).handler(api.body()).handler(api.gate(Role.OPERATOR)).handler(ctx -> compiling(ctx, api, 201,
                () -> audited(api, ctx, "trial_started", trials.start(body(ctx)))));
        router.get(TRIALS).handler(api.gate(Role.VIEWER)).handler(ctx -> api.blocking(ctx, 200, () -> Json.bytes(trials.list())));
        router.get(TRIAL).handler(api.gate(Role.VIEWER)).handler(ctx -> api.blocking(ctx, 200,
                () -> Json.bytes(trials.show(ctx.pathParam("id")))));
        router.patch(TRIAL).handler(api.body()).handler(api.gate(Role.OPERATOR)).handler(ctx -> json(ctx, api, () -> api.blocking(ctx,
                200, () -> Json.bytes(audited(api, ctx, "trial_changed", trials.change(ctx.pathParam("id"), body(ctx)))))));
        router.post(TRIAL + "/promote").handler(api.body()).handler(api.gate(Role.OPERATOR)).handler(ctx -> compiling(ctx, api, 200,
                () -> trials.promote(ctx.pathParam("id"), body(ctx), Api.principal(ctx))));
        router.post(TRIAL + "/abort").handler(api.body()).handler(api.gate(Role.OPERATOR)).handler(ctx -> json(ctx, api,
                () -> api.blocking(ctx, 200, () -> Json.bytes(audited(api, ctx, "trial_aborted", trials.abort(ctx.pathParam("id"),
                        body(ctx)))))));
    }

    /**
     * Records what an operator did to a trial in the audit log (its promotion is recorded as the
     * activation it is), and hands the trial's view on.
     */
    private static JsonNode audited(Api api, RoutingContext ctx, String action, JsonNode view) {
        api.people().record(Api.principal(ctx), action, Json.object().put("trial", view.path("id").asText())
                .put("draft", view.path("draft").asText(null)).put("mode", view.path("mode").asText(null))
                .put("percent", view.path("percent").asDouble()).put("state", view.path("state").asText(null))
                .put("candidate_revision", view.path("candidate_revision").asText(null)));
        return view;
    }

    @FunctionalInterface
    private interface Work {
        JsonNode call() throws Exception;
    }

    /** Work that compiles (or replays): on the reload thread, outside the guard. */
    private static void compiling(RoutingContext ctx, Api api, int status, Work work) {
        json(ctx, api, () -> api.respondUnguarded(ctx, () -> new Api.Reply(status, Json.bytes(work.call()))));
    }

    private static void json(RoutingContext ctx, Api api, Runnable then) {
        if (api.acceptsJson(ctx, false)) {
            then.run();
        }
    }

    /** The body as JSON, or null when there is none (an abort without a reason). */
    private static JsonNode body(RoutingContext ctx) throws InputException {
        byte[] b = Api.bodyBytes(ctx);
        return b.length == 0 ? null : Json.parse(b);
    }
}
