package io.signalman.http;

import io.signalman.decisions.Decisions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;

/**
 * The decision endpoints as event-bus addresses: same JSON in, same JSON out, no HTTP
 * hop. Each pack's addresses come from its {@link ApiModule}.
 */
public final class EventBusApi extends VerticleBase {

    private final Decisions decisions;
    private final ServerConfig config;
    private final Guard guard;
    private WorkerExecutor workers;

    public EventBusApi(Decisions decisions, ServerConfig config, Guard guard) {
        this.decisions = decisions;
        this.config = config;
        this.guard = guard;
    }

    @Override
    public Future<?> start() {
        // The bus has no reload address; the Api wants the pool all the same, and shares HTTP's by name.
        workers = vertx.createSharedWorkerExecutor(HttpApi.RELOAD_POOL, 1);
        // No address is gated: the bus serves decisions only, so it needs no people to check tokens with.
        Api api = new Api(vertx, decisions, workers, config, guard, null, null);
        ApiModules.ALL.forEach(m -> m.addresses(api));
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        return workers.close();
    }
}
