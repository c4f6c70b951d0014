package io.signalman.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.cluster.ClusterView;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.signalman.decisions.Decisions;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP API: health, readiness, the rules, and each pack's routes from
 * {@link ApiModules}. Handlers run on the event loop and only route: parsing, rule evaluation and
 * logging run on the guard's {@code signalman-decide} threads, operators' requests on its
 * {@code signalman-operator} threads, so that they never wait behind rules, and a reload on a
 * thread of its own (see {@link Guard}). A body handler sits on the routes that
 * read a body only, so an unknown path stays a 404. The admin endpoints are served on the public
 * port, or, when {@link ServerConfig#adminListener()} is set, on that listener only. The benchmarks'
 * endpoint ({@link BenchEcho}) is routed only when {@link ServerConfig#benchEndpoints()} asks for it.
 */
public final class HttpApi extends VerticleBase {

    private static final Buffer OPENAPI = openapiDocument();
    /**
     * The Vert.x pool reloads run on: outside the guard (a reload may take seconds), one thread,
     * as reloads take turns anyway. Shared by name with the event bus verticle.
     */
    public static final String RELOAD_POOL = "signalman-reload";
    /** The Vert.x pool tokens are checked on when that takes a slow hash. */
    public static final String AUTH_POOL = "signalman-auth";

    /** Netty's defaults, named: a longer request line is 414, larger headers are 431. */
    static final int MAX_INITIAL_LINE = HttpServerOptions.DEFAULT_MAX_INITIAL_LINE_LENGTH;
    static final int MAX_HEADER_SIZE = HttpServerOptions.DEFAULT_MAX_HEADER_SIZE;

    private final Decisions decisions;
    private final ServerConfig config;
    private final Guard guard;
    private HttpServer server;
    private HttpServer adminServer;
    private WorkerExecutor reloads;
    /** Where tokens are checked when that takes a slow hash (two threads: the hash's memory is bounded too). */
    private WorkerExecutor authWorkers;
    /** The users, the audit log and who a token belongs to. */
    private io.signalman.people.People people;
    private Router router;

    private final ClusterView cluster;
    /** The analysts' workbench, mounted from above (app): http knows it only as routes. */
    private ApiModule workbench;
    /** Live trials' endpoints, when the server runs trials. */
    private ApiModule trials;
    private final Metrics metrics;
    private final Readiness readiness;
    /** In a cluster: the revision this member cannot build (null: none), and the cluster's live revision. */
    private volatile java.util.function.Supplier<String> unavailable;
    private volatile java.util.function.Supplier<String> clusterRevision;
    /** What decides: a member that cannot build the cluster's revision answers these 503 revision_unavailable. */
    private static final java.util.List<String> DECIDING = java.util.List.of("/v1/broker/", "/v1/dispatch", "/v1/fsm/instances", "/v1/handoff/",
            "/v1/signals/");
    /** Open connections on the public listener, shown as {@code signalman_connections_open}. */
    private final java.util.concurrent.atomic.AtomicInteger openConnections = new java.util.concurrent.atomic.AtomicInteger();

    public HttpApi(Decisions decisions, Metrics metrics, ServerConfig config, Guard guard) {
        this(decisions, metrics, config, guard, ClusterView.standalone());
    }

    public HttpApi(Decisions decisions, Metrics metrics, ServerConfig config, Guard guard, ClusterView cluster) {
        this.decisions = decisions;
        this.metrics = metrics;
        this.config = config;
        this.guard = guard;
        this.cluster = cluster;
        this.readiness = baseReadiness(decisions, guard.decisionWorkers());
    }

    /** Authenticates with, and records in the audit log of, {@code p}. */
    public HttpApi withPeople(io.signalman.people.People p) {
        this.people = p;
        return this;
    }

    /** Serves the analysts' workbench too: on the admin listener when there is one, else here. */
    public HttpApi withWorkbench(ApiModule w) {
        this.workbench = w;
        return this;
    }

    /**
     * In a cluster, where the rules folder mirrors the cluster's revision: {@code unavailable} names
     * the revision this member could not build (null when it serves the cluster's), and decisions
     * are then answered 503 {@code revision_unavailable}, never on the old rules; {@code live} is
     * the cluster's revision. {@code POST /v1/rules/reload} is refused: rules change through an
     * activation, which every member loads.
     */
    public HttpApi withClusterRules(java.util.function.Supplier<String> unavailable, java.util.function.Supplier<String> live) {
        this.unavailable = unavailable;
        this.clusterRevision = live;
        readiness.add("rules", () -> {
            String u = unavailable.get();
            return u == null ? null : "cannot build the cluster's revision " + u;
        });
        return this;
    }

    /** Serves the live trials' endpoints (admin) too. */
    public HttpApi withTrials(io.signalman.trials.Trials t) {
        this.trials = new TrialsApi(t);
        return this;
    }

    @Override
    public Future<?> start() {
        reloads = vertx.createSharedWorkerExecutor(RELOAD_POOL, 1);
        authWorkers = vertx.createSharedWorkerExecutor(AUTH_POOL, 2);
        Router router = Router.router(vertx);
        router.route().handler(ctx -> ctx.put(Responses.METRICS, metrics).next());
        router.route().handler(this::revisionAvailable);
        router.get("/health").handler(this::health);
        router.get("/openapi.yaml").handler(this::openapi);
        router.get("/metrics").handler(this::metrics);
        router.get("/ready").handler(this::ready);
        router.get("/v1/rules").handler(this::rules);
        router.get("/v1/cluster").handler(this::cluster);
        Api api = new Api(vertx, decisions, reloads, config, guard, people, authWorkers);
        ApiModules.ALL.forEach(m -> m.routes(router, api));
        if (config.benchEndpoints()) {
            new BenchEcho().routes(router, api);
        }
        // With an admin listener, the public router keeps the admin routes, whose gate answers 404.
        adminRoutes(router, api);
        if (workbench != null && config.adminListener() == null) {
            workbench.routes(router, api);
        }
        errorHandlers(router);
        this.router = router;
        server = listen(router, config.host(), config.port(), true);
        if (config.adminListener() == null) {
            return server.listen();
        }
        Router admin = Router.router(vertx);
        admin.route().handler(ctx -> ctx.put(Responses.METRICS, metrics).next());
        // The operator's endpoints answer here too: this listener has no connection cap, so they keep
        // answering when clients hold every connection the public one allows.
        admin.get("/health").handler(this::health);
        admin.get("/ready").handler(this::ready);
        admin.get("/metrics").handler(this::metrics);
        adminRoutes(admin, api.onAdminListener());
        if (workbench != null) {
            workbench.routes(admin, api.onAdminListener());
        }
        errorHandlers(admin);
        adminServer = listen(admin, config.adminListener().host(), config.adminListener().port(), false);
        return server.listen().compose(s -> adminServer.listen());
    }

    private void adminRoutes(Router router, Api api) {
        router.post("/v1/rules/reload").handler(api.gate(io.signalman.people.Role.OPERATOR)).handler(ctx -> reload(ctx, api));
        UsersApi.routes(router, api);
        AuditApi.routes(router, api);
        ApiModules.ALL.forEach(m -> m.adminRoutes(router, api));
        if (trials != null) {
            trials.adminRoutes(router, api);
        }
    }

    /**
     * A listener with the connection limits: the public one counts against the connection cap,
     * the admin one does not, so an operator can still reach it when clients hold every slot.
     */
    private HttpServer listen(Router router, String host, int port, boolean capped) {
        Connections connections = new Connections(vertx, config.limits().connections(), capped, openConnections,
                metrics);
        return vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port)
                        .setMaxInitialLineLength(MAX_INITIAL_LINE).setMaxHeaderSize(MAX_HEADER_SIZE)
                        // HTTP/1.1 only: a listener that may see an h2c preface waits for a client's first
                        // bytes before it has a connection, so a client that sends nothing is not yet one
                        // that the idle timeout and the connection cap can see.
                        .setHttp2ClearTextEnabled(false))
                .invalidRequestHandler(HttpApi::invalidRequest)
                .connectionHandler(connections::opened)
                .requestHandler(connections.requests(router));
    }

    /** Every error the router itself produces is JSON, like the handlers' own. */
    private void errorHandlers(Router router) {
        router.errorHandler(400, ctx -> Responses.error(ctx, ApiError.of(400, "bad_request",
                "the request line or a parameter is not valid HTTP: " + (ctx.failure() == null ? "bad request"
                        : Api.shorten(String.valueOf(rootCause(ctx.failure()).getMessage()))))));
        router.errorHandler(404, ctx -> Responses.error(ctx, ApiError.of(404, "not_found",
                "no such endpoint: " + ctx.request().method() + " " + Api.shorten(ctx.request().path()))));
        router.errorHandler(405, ctx -> Responses.error(ctx, ApiError.of(405, "method_not_allowed",
                ctx.request().method() + " is not allowed on " + Api.shorten(ctx.request().path()))));
        router.errorHandler(413, ctx -> Responses.error(ctx, ApiError.of(413, "body_too_large",
                "the request body is over the limit of " + config.bodyLimit() + " bytes")));
        router.errorHandler(500, ctx -> Responses.error(ctx, ApiError.from(ctx.failure() == null
                ? new IllegalStateException("unknown failure") : ctx.failure())));
    }

    private static Throwable rootCause(Throwable t) {
        return t.getCause() == null ? t : rootCause(t.getCause());
    }

    /**
     * A request Netty could not decode (a request line over {@link #MAX_INITIAL_LINE}, headers
     * over {@link #MAX_HEADER_SIZE}, garbage): the status Vert.x would send (414, 431, 400), with
     * our JSON body, then the connection is closed as Vert.x's own handler does. Event loop.
     */
    private static void invalidRequest(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        ApiError e;
        if (cause instanceof TooLongHttpLineException) {
            e = ApiError.of(414, "uri_too_long", "the request line is over the limit of " + MAX_INITIAL_LINE + " bytes");
        } else if (cause instanceof TooLongHttpHeaderException) {
            e = ApiError.of(431, "headers_too_large", "the request headers are over the limit of " + MAX_HEADER_SIZE + " bytes");
        } else {
            e = ApiError.of(400, "bad_request", "the request is not valid HTTP/1.1"
                    + (cause == null ? "" : ": " + Api.shorten(String.valueOf(cause.getMessage()))));
        }
        request.response().setStatusCode(e.status()).putHeader("content-type", "application/json")
                .putHeader("connection", "close").end(Buffer.buffer(Json.bytes(e.toJson())))
                .onComplete(x -> request.connection().close());
    }

    /** The port actually bound (useful when the configured port is 0). */
    public int port() {
        return server.actualPort();
    }

    /** The public routes served, for the contract test that holds them to openapi.yaml. */
    Router router() {
        return router;
    }

    /** Connections open on the public listener. */
    public int openConnections() {
        return openConnections.get();
    }

    /** The admin listener's port, or -1 when the admin endpoints are on the public port. */
    public int adminPort() {
        return adminServer == null ? -1 : adminServer.actualPort();
    }

    /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes. */
    @Override
    public Future<?> stop() {
        Future<Void> admin = adminServer == null ? Future.succeededFuture()
                : adminServer.shutdown(10, java.util.concurrent.TimeUnit.SECONDS);
        return Future.join(server.shutdown(10, java.util.concurrent.TimeUnit.SECONDS), admin)
                .eventually(() -> reloads.close()).eventually(() -> authWorkers.close());
    }

    /**
     * Liveness, with the decision threads' state. 503 {@code stalled} only when every decision
     * thread is held by rules past their deadline and none may be replaced: the process then
     * decides nothing until those rules end, which may be never, so an orchestrator should
     * restart it. Fewer stuck threads leave it live (they were replaced, or capacity is only
     * reduced, which {@code /ready} reports). Event loop: a few counts, no worker.
     */
    private void health(RoutingContext ctx) {
        Workers w = guard.decisionWorkers();
        ObjectNode counts = Json.object().put("workers", w.size()).put("stuck_workers", w.stuck())
                .put("abandoned_workers", w.abandoned()).put("max_abandoned_workers", w.maxAbandoned());
        if (w.stalled()) {
            Responses.error(ctx, new ApiError(503, "stalled", "every decision worker is held by rules past their deadline, "
                    + "and the bound of " + w.maxAbandoned() + " abandoned workers is reached: nothing is decided until "
                    + "those rules end; restart the server", counts));
            return;
        }
        ObjectNode live = Json.object().put("status", "live");
        live.setAll(counts);
        Responses.json(ctx, 200, live);
    }

    /** The contract, read once from the jar: src/main/resources/openapi.yaml. */
    private void openapi(RoutingContext ctx) {
        ctx.response().putHeader("content-type", "application/yaml; charset=utf-8").end(OPENAPI);
    }

    private void metrics(RoutingContext ctx) {
        guard.operate(vertx, metrics::scrape)
                .onSuccess(text -> ctx.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(text))
                .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
    }

    /** The cluster's members and the revision each serves; a member on another revision is flagged. */
    private void cluster(RoutingContext ctx) {
        cluster.describe(vertx).onSuccess(view -> Responses.json(ctx, 200, view))
                .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
    }

    /** What this node tells {@code GET /v1/cluster} on any member about itself. */
    public ObjectNode status() {
        RuleBundle b = decisions.engine().current().orElse(null);
        ObjectNode s = Json.object();
        s.put("http", config.host() + ":" + port());
        s.put("rules_revision", b == null ? null : b.revision());
        s.put("rules_loaded_at", b == null ? null : b.loadedAt().toString());
        s.put("in_flight", guard.inFlight());
        if (unavailable != null) {
            s.put("cluster_revision", clusterRevision.get());
            s.put("revision_unavailable", unavailable.get());
        }
        return s;
    }

    /** The conditions {@code GET /ready} checks; the server adds its own (see {@link Readiness}). */
    Readiness readiness() {
        return readiness;
    }

    /**
     * NOTE: a stuck decision thread alone does not make the server unready: it is replaced and
     * decisions go on at full capacity, and a 503 for it would let a handful of hostile messages
     * take every node of a deployment out of rotation. Only a stuck thread that could not be
     * replaced (the bound of abandoned threads is reached) costs capacity, and that is reported.
     */
    private static Readiness baseReadiness(Decisions decisions, Workers workers) {
        return new Readiness()
                .add("rules_loaded", () -> decisions.engine().current().isPresent() ? null : "no rule bundle is loaded yet")
                .add("decision_workers", () -> {
                    int lost = workers.lost();
                    return lost == 0 ? null : lost + " of " + workers.size() + " decision workers are held by rules past "
                            + "their deadline and cannot be replaced (" + workers.abandoned() + " abandoned already, at most "
                            + workers.maxAbandoned() + "); decisions run with less capacity until those rules end";
                })
                .add("storage_writable", () -> {
                    java.io.IOException e = decisions.log().failure();
                    return e == null ? null : "the data directory cannot take writes: " + e.getMessage();
                });
    }

    private void ready(RoutingContext ctx) {
        var failing = readiness.failing();
        if (!failing.isEmpty()) {
            StringBuilder why = new StringBuilder("not ready:");
            failing.forEach(f -> why.append(' ').append(f.get("problem").asText()).append(';'));
            ObjectNode details = Json.object();
            details.set("conditions", failing);
            Responses.error(ctx, new ApiError(503, "not_ready", why.substring(0, why.length() - 1), details));
            return;
        }
        RuleBundle b = decisions.engine().current().orElse(null);
        Responses.json(ctx, 200, Json.object().put("status", "ready").put("rules_revision", b == null ? null : b.revision()));
    }

    /**
     * Admin: compile, gate and swap now; 200 with the new revision, or 422 with every reason.
     * Outside the request guard: compiling may take longer than a decision's deadline.
     */
    private void revisionAvailable(RoutingContext ctx) {
        java.util.function.Supplier<String> u = unavailable;
        String why = u == null || ctx.request().method() == io.vertx.core.http.HttpMethod.GET ? null : u.get();
        if (why != null && DECIDING.stream().anyMatch(ctx.request().path()::startsWith)) {
            Responses.error(ctx, ApiError.of(503, "revision_unavailable", "this member cannot build the cluster's rules "
                    + "revision " + why + "; it decides nothing rather than decide on old rules: send to another member"));
            return;
        }
        ctx.next();
    }

    private void reload(RoutingContext ctx, Api api) {
        if (clusterRevision != null) {
            Responses.error(ctx, ApiError.of(409, "cluster_rules", "in a cluster the rules folder mirrors the cluster's revision "
                    + clusterRevision.get() + ": rules change through the workbench (a draft, approved, then activated on any "
                    + "node), which every member loads; a hand edit of a folder is put back"));
            return;
        }
        api.respondUnguarded(ctx, () -> {
            String before = decisions.engine().current().map(RuleBundle::revision).orElse(null);
            try {
                RuleBundle b = decisions.engine().load();
                api.people().record(Api.principal(ctx), "rules_reloaded", Json.object().put("old_revision", before)
                        .put("new_revision", b.revision()));
                return new Api.Reply(200, Json.bytes(Json.object().put("status", "loaded").put("revision", b.revision())
                        .put("previous_revision", before).set("warnings", RulesView.errors(b.warnings()))));
            } catch (io.signalman.engine.BundleException e) {
                var body = ApiError.of(422, "bundle_refused", (e instanceof io.signalman.engine.GateRefused
                        ? "the new rules compile, but the gate refused them: " : "the new rules do not compile or lint: ")
                        + e.errors().size() + " reason(s), invariant violations first; still serving " + before).toJson();
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
        guard.operate(vertx, () -> Json.bytes(RulesView.of(decisions.engine())))
                .onSuccess(json -> Responses.json(ctx, 200, json))
                .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
    }
}
