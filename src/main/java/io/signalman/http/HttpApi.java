package io.signalman.http;

import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP API (SPEC 5): health, readiness, the rules, and each pack's routes from
 * {@link ApiModules}. Handlers run on the event loop and only route: parsing, rule evaluation and
 * logging run on the {@code signalman-decide} worker pool. A body handler sits on the routes that
 * read a body only, so an unknown path stays a 404.
 */
public final class HttpApi extends VerticleBase {

    private static final Buffer OPENAPI = openapiDocument();
    /** The worker pool every decision runs on, shared by HTTP and the event bus. */
    static final String WORKER_POOL = "signalman-decide";

    private final Decisions decisions;
    private final ServerConfig config;
    private final Guard guard;
    private HttpServer server;
    private WorkerExecutor workers;
    private Router router;

    HttpApi(Decisions decisions, ServerConfig config, Guard guard) {
        this.decisions = decisions;
        this.config = config;
        this.guard = guard;
    }

    @Override
    public Future<?> start() {
        workers = vertx.createSharedWorkerExecutor(HttpApi.WORKER_POOL, config.workers());
        Router router = Router.router(vertx);
        router.route().handler(ctx -> ctx.put(Responses.METRICS, decisions.metrics()).next());
        router.get("/health").handler(this::health);
        router.get("/openapi.yaml").handler(this::openapi);
        router.get("/metrics").handler(this::metrics);
        router.get("/ready").handler(this::ready);
        router.get("/v1/rules").handler(this::rules);
        router.post("/v1/rules/reload").handler(this::reload);
        Api api = new Api(vertx, decisions, workers, config, guard);
        ApiModules.ALL.forEach(m -> m.routes(router, api));
        router.errorHandler(404, ctx -> Responses.error(ctx, ApiError.of(404, "not_found",
                "no such endpoint: " + ctx.request().method() + " " + ctx.request().path())));
        router.errorHandler(405, ctx -> Responses.error(ctx, ApiError.of(405, "method_not_allowed",
                ctx.request().method() + " is not allowed on " + ctx.request().path())));
        router.errorHandler(413, ctx -> Responses.error(ctx, ApiError.of(413, "body_too_large",
                "the request body is over the limit of " + config.bodyLimit() + " bytes")));
        router.errorHandler(500, ctx -> Responses.error(ctx, ApiError.from(ctx.failure() == null
                ? new IllegalStateException("unknown failure") : ctx.failure())));
        this.router = router;
        server = vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port()));
        return server.requestHandler(router).listen();
    }

    /** The port actually bound (useful when the configured port is 0). */
    public int port() {
        return server.actualPort();
    }

    /** The routes served, for the contract test that holds them to openapi.yaml. */
    Router router() {
        return router;
    }

    /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
    @Override
    public Future<?> stop() {
        return server.shutdown(10, java.util.concurrent.TimeUnit.SECONDS).eventually(() -> workers.close());
    }

    private void health(RoutingContext ctx) {
        Responses.json(ctx, 200, Json.object().put("status", "live"));
    }

    /** The contract (SPEC 5), read once from the jar: src/main/resources/openapi.yaml. */
    private void openapi(RoutingContext ctx) {
        ctx.response().putHeader("content-type", "application/yaml; charset=utf-8").end(OPENAPI);
    }

    private void metrics(RoutingContext ctx) {
        workers.executeBlocking(decisions.metrics()::scrape, false)
                .onSuccess(text -> ctx.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(text))
                .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
    }

    private void ready(RoutingContext ctx) {
        RuleBundle b = decisions.engine().current().orElse(null);
        if (b == null) {
            Responses.error(ctx, ApiError.of(503, "not_ready", "no rule bundle is loaded yet"));
        } else {
            Responses.json(ctx, 200, Json.object().put("status", "ready").put("rules_revision", b.revision()));
        }
    }

    /** Admin: compile, gate and swap now; 200 with the new revision, or 422 with every reason. */
    private void reload(RoutingContext ctx) {
        Api api = new Api(vertx, decisions, workers, config, guard);
        if (!api.admin(ctx)) {
            return;
        }
        api.respondUnguarded(ctx, () -> {
            String before = decisions.engine().current().map(RuleBundle::revision).orElse(null);
            try {
                RuleBundle b = decisions.engine().load();
                return new Api.Reply(200, Json.bytes(Json.object().put("status", "loaded").put("revision", b.revision())
                        .put("previous_revision", before).set("warnings", RulesView.errors(b.warnings()))));
            } catch (io.signalman.engine.BundleException e) {
                var body = ApiError.of(422, "bundle_refused", e.errors().size() + " reason(s) to refuse the new rules; still serving "
                        + before).toJson();
                body.put("revision", before);
                body.putObject("details").set("errors", RulesView.errors(e.errors()));
                return new Api.Reply(422, Json.bytes(body));
            }
        });
    }

    private static Buffer openapiDocument() {
        try (var in = HttpApi.class.getResourceAsStream("/openapi.yaml")) {
            if (in == null) {
                throw new IllegalStateException("openapi.yaml is missing from the classpath");
            }
            return Buffer.buffer(in.readAllBytes());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void rules(RoutingContext ctx) {
        workers.executeBlocking(() -> Json.bytes(RulesView.of(decisions.engine())), false)
                .onSuccess(json -> Responses.json(ctx, 200, json))
                .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
    }
}
