package io.signalman.app;

import io.signalman.decisions.Decisions;
import io.signalman.http.BrokerApi;
import io.signalman.http.Guard;
import io.signalman.http.HttpApi;
import io.signalman.http.Metrics;
import io.signalman.http.RequestLimits;
import io.signalman.http.ServerConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

/**
 * Loads the HTTP stack's classes before the real server starts. The first server bind and the
 * first request in a JVM load and initialize a few hundred Netty and Vert.x Web classes on an
 * event loop (we measured 100 to 470 ms), long enough to trip a tight blocked-thread limit.
 * Doing it once on a throwaway Vert.x that serves no one moves that cost out of the event loops
 * that serve traffic, instead of raising the limit or hiding the warning. Blocking; called from
 * the thread that starts the server.
 */
final class Warmup {

    private Warmup() {
    }

    /** {@code guard} is the server's: the warm-up request is refused before it reaches the guard. */
    static void run(Decisions decisions, Metrics metrics, ServerConfig config, Guard guard) {
        Vertx scratch = Vertx.vertx();
        try {
            // Default limits: a warm-up is nobody's connection, and a 1 s --idle-timeout on a loaded
            // machine closed it before its one request (seen in ConnectionLimitsProcessTest).
            ServerConfig local = config.withPort(0).withLimits(RequestLimits.defaults());
            HttpApi http = new HttpApi(decisions, metrics, local, guard);
            scratch.deployVerticle(http).await();
            HttpClient client = scratch.createHttpClient();
            // A 415 goes through routing, the body handler and the error path, and decides nothing.
            client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost(local.host()).setPort(http.port())
                            .setURI(BrokerApi.ROUTE).putHeader("content-type", "text/plain"))
                    .compose(req -> req.send("warm-up").compose(res -> res.body()))
                    .await();
        } finally {
            scratch.close().await();
        }
    }
}
