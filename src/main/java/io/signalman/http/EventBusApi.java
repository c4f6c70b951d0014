package io.signalman.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;

/**
 * The decision endpoints as event-bus addresses (SPEC 5): same JSON in, same JSON out, no HTTP
 * hop. Each pack's addresses come from its {@link ApiModule}.
 */
public final class EventBusApi extends VerticleBase {

    private final Decisions decisions;
    private final ServerConfig config;
    private WorkerExecutor workers;

    public EventBusApi(Decisions decisions, ServerConfig config) {
        this.decisions = decisions;
        this.config = config;
    }

    @Override
    public Future<?> start() {
        workers = vertx.createSharedWorkerExecutor("signalman-decide", config.workers());
        Api api = new Api(vertx, decisions, workers, config);
        ApiModules.ALL.forEach(m -> m.addresses(api));
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        return workers.close();
    }
}
