package io.signalman.http;

import io.signalman.packs.Packs;
import io.vertx.ext.web.Router;

/** The broker's endpoints. */
public final class BrokerApi implements ApiModule {

    public static final String ROUTE = "/v1/broker/route";
    static final String BATCH = "/v1/broker/route:batch";
    static final String ADDRESS = "signalman.broker.route";

    @Override
    public void routes(Router router, Api api) {
        router.post(ROUTE).handler(api.body()).handler(api.decide(Packs.BROKER, ROUTE, false));
        // A regex route: in a plain path, Vert.x would read ":batch" as a path parameter.
        router.postWithRegex("/v1/broker/route:batch").handler(api.body()).handler(api.decide(Packs.BROKER, BATCH, true));
    }

    @Override
    public void addresses(Api api) {
        api.consumer(ADDRESS, Packs.BROKER);
    }
}
