package io.signalman.http;

import io.signalman.packs.Packs;
import io.vertx.ext.web.Router;

/** The dispatch pack's endpoint and event-bus address. */
final class DispatchApi implements ApiModule {

    static final String DISPATCH = "/v1/dispatch";
    static final String ADDRESS = "signalman.dispatch";

    @Override
    public void routes(Router router, Api api) {
        router.post(DISPATCH).handler(api.body()).handler(api.decide(Packs.DISPATCH, DISPATCH, false));
    }

    @Override
    public void addresses(Api api) {
        api.consumer(ADDRESS, Packs.DISPATCH);
    }
}
