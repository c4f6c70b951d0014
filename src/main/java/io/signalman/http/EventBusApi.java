package io.signalman.http;

import io.signalman.Packs;
import io.signalman.engine.DecisionPack;
import io.signalman.json.Json;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * The decision endpoints as event-bus addresses (SPEC 5): same JSON in, same JSON out, no HTTP
 * hop. A message body may be a JsonObject, a String or a Buffer of JSON; header {@code explain:
 * true} asks for the explanation. Failures reply with the HTTP status as the failure code and the
 * error JSON as the message.
 */
public final class EventBusApi extends VerticleBase {

    public static final String BROKER_ROUTE = "signalman.broker.route";

    private final Decisions decisions;
    private final int workerCount;
    private WorkerExecutor workers;

    public EventBusApi(Decisions decisions, int workerCount) {
        this.decisions = decisions;
        this.workerCount = workerCount;
    }

    @Override
    public Future<?> start() {
        workers = vertx.createSharedWorkerExecutor("signalman-decide", workerCount);
        return vertx.eventBus().<Object>consumer(BROKER_ROUTE, m -> decide(Packs.BROKER, BROKER_ROUTE, m)).completion();
    }

    @Override
    public Future<?> stop() {
        return workers.close();
    }

    private <I, D> void decide(DecisionPack<I, D> pack, String address, Message<Object> message) {
        byte[] body;
        Object b = message.body();
        if (b instanceof JsonObject o) {
            body = o.toBuffer().getBytes();
        } else if (b instanceof Buffer buf) {
            body = buf.getBytes();
        } else if (b instanceof String s) {
            body = s.getBytes(StandardCharsets.UTF_8);
        } else {
            message.fail(400, Json.write(ApiError.of(400, "invalid_input",
                    "send a JsonObject, a String or a Buffer of JSON, not " + (b == null ? "null" : b.getClass().getSimpleName())).toJson()));
            return;
        }
        boolean explain = "true".equals(message.headers().get("explain"));
        workers.<byte[]>executeBlocking(() -> decisions.decide(pack, address, body, explain), false)
                .onSuccess(json -> message.reply(new JsonObject(Buffer.buffer(json))))
                .onFailure(err -> {
                    ApiError e = ApiError.from(err);
                    message.fail(e.status(), Json.write(e.toJson()));
                });
    }
}
