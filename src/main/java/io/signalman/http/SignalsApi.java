package io.signalman.http;

import io.signalman.packs.Packs;
import io.signalman.fsm.FsmService;
import io.signalman.json.Json;
import io.signalman.signals.SignalRequest;
import io.signalman.signals.SignalStep;
import io.vertx.ext.web.Router;

/**
 * Three-tier signal routing. The strategy tier sees the agent's FSM state: the
 * instance whose id is the agent's id, read when the signal is routed and logged as
 * {@code state_before}.
 */
final class SignalsApi implements ApiModule {

    static final String ROUTE = "/v1/signals/route";
    static final String ADDRESS = "signalman.signals.route";

    @Override
    public void routes(Router router, Api api) {
        router.post(ROUTE).handler(api.body()).handler(ctx -> {
            if (!api.acceptsJson(ctx, false)) {
                return;
            }
            byte[] body = Api.bodyBytes(ctx);
            boolean explain = Api.explain(ctx);
            api.respond(ctx, () -> route(api, ROUTE, body, explain));
        });
    }

    @Override
    public void addresses(Api api) {
        api.replyWith(ADDRESS, (body, explain) -> route(api, ADDRESS, body, explain));
    }

    /** Reads the agent's state and decides; the answer leaves once its record is written (no state changes here). */
    private static Api.Reply route(Api api, String endpoint, byte[] body, boolean explain) throws Exception {
        SignalRequest r = SignalRequest.parse(Json.parse(body));
        FsmService fsm = FsmApi.service(api);
        SignalStep step = new SignalStep(r.agent(), r.signal().kind(), r.signal().payload(), fsm.ofAgent(r.agent()).orElse(null));
        return Api.Reply.queued(api.decisions().commitQueued(Packs.SIGNALS, endpoint, step,
                api.decisions().evaluate(Packs.SIGNALS, step, explain), null));
    }
}
