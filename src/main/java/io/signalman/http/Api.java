package io.signalman.http;

import io.signalman.decisions.Decisions;
import io.signalman.engine.DecisionPack;
import io.signalman.json.Json;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * What API modules share: the decision service, the guard and its threads, the configuration,
 * and the few ways a request is handled (a body limit, work off the event loop, JSON in and out).
 *
 * <p>NOTE(size): over the ~200-line guide on purpose: every way a request reaches work (HTTP or
 * event bus; guarded, admin-gated or not) goes through here, so the guard, the admin check and
 * the media-type check cannot be skipped by a module that forgot one of them.
 */
public final class Api {

    private final Vertx vertx;
    private final Decisions decisions;
    /** For admin work that may rightly run for seconds (a reload), outside the guard. */
    private final WorkerExecutor unguarded;
    private final ServerConfig config;
    private final BodyHandler body;
    private final Guard guard;
    /** True on the public listener while a separate admin listener serves the admin endpoints. */
    private final boolean adminElsewhere;

    Api(Vertx vertx, Decisions decisions, WorkerExecutor unguarded, ServerConfig config, Guard guard) {
        this(vertx, decisions, unguarded, config, guard, config.adminListener() != null);
    }

    private Api(Vertx vertx, Decisions decisions, WorkerExecutor unguarded, ServerConfig config, Guard guard,
                boolean adminElsewhere) {
        this.vertx = vertx;
        this.decisions = decisions;
        this.unguarded = unguarded;
        this.config = config;
        this.guard = guard;
        this.adminElsewhere = adminElsewhere;
        this.body = BodyHandler.create(false).setBodyLimit(config.bodyLimit());
    }

    /** The same, for the routes of the admin listener, where the admin endpoints are served. */
    Api onAdminListener() {
        return new Api(vertx, decisions, unguarded, config, guard, false);
    }

    public Vertx vertx() {
        return vertx;
    }

    public Decisions decisions() {
        return decisions;
    }

    public ServerConfig config() {
        return config;
    }

    /** Reads the body up to the limit (413 past it); put it before any handler that reads a body. */
    public BodyHandler body() {
        return body;
    }

    /**
     * A status and a JSON body, for work whose status depends on its outcome (a 409 refusal).
     * {@code replayed} marks the remembered answer to a repeated idempotency key.
     */
    public record Reply(int status, byte[] body, boolean replayed) {
        public Reply(int status, byte[] body) {
            this(status, body, false);
        }
    }

    /** The header a client names a request with, so that a retry is answered, not redone. */
    static final String IDEMPOTENCY_KEY = "idempotency-key";

    /** Set on a request that passed {@link #admin}: its work runs on the operators' threads. */
    private static final String ADMIN = "signalman.admin";

    /** Runs {@code work} on a worker thread and answers with its JSON, or with the mapped error. */
    public void blocking(RoutingContext ctx, int status, Callable<byte[]> work) {
        respond(ctx, () -> new Reply(status, work.call()));
    }

    /** Runs {@code work} on a worker thread and answers with its reply, or with the mapped error. */
    public void respond(RoutingContext ctx, Callable<Reply> work) {
        respond(ctx, false, work);
    }

    /**
     * Like {@link #respond(RoutingContext, Callable)}, under the server's {@link Guard}: admitted
     * or 503, a deadline, and once per {@code Idempotency-Key} header (or, with {@code bodyId},
     * per the body's top-level {@code "id"}: a broker or dispatch message id). A request that
     * passed {@link #admin} runs as admin work ({@link Guard#runAdmin}): set apart from clients'
     * requests, so no module has to remember to.
     */
    public void respond(RoutingContext ctx, boolean bodyId, Callable<Reply> work) {
        String header = ctx.request().method() == io.vertx.core.http.HttpMethod.GET ? null
                : ctx.request().getHeader(IDEMPOTENCY_KEY);
        String scope = ctx.request().method() + " " + ctx.request().path();
        Guard.KeySource keys = () -> {
            byte[] in = bodyBytes(ctx);
            return Idempotency.key(scope, header != null || !bodyId ? header : Idempotency.bodyId(in), in);
        };
        Guard.Answer answer = new Guard.Answer() {
            @Override
            public void reply(Reply r) {
                if (r.replayed()) {
                    ctx.response().putHeader("idempotent-replayed", "true");
                }
                Responses.json(ctx, r.status(), r.body());
            }

            @Override
            public void fail(ApiError e) {
                Responses.error(ctx, e);
            }
        };
        if (Boolean.TRUE.equals(ctx.get(ADMIN))) {
            guard.runAdmin(vertx, keys, work, answer);
        } else {
            guard.run(vertx, keys, work, answer);
        }
    }

    /**
     * Outside the guard, for admin work that may rightly take long (a reload compiles a bundle
     * for seconds) and must not be refused when the server is busy serving decisions.
     */
    void respondUnguarded(RoutingContext ctx, Callable<Reply> work) {
        unguarded.executeBlocking(work, false)
                .onSuccess(r -> Responses.json(ctx, r.status(), r.body()))
                .onFailure(err -> Responses.error(ctx, ApiError.from(err)));
    }

    /** Requests admitted and not yet finished, HTTP and event bus together. */
    int inFlight() {
        return guard.inFlight();
    }

    /**
     * Refuses a body that says it is not JSON (415); true when the request may go on. The media
     * type is compared without its parameters and case (RFC 9110), and a charset other than
     * UTF-8 is refused too: the body is always read as UTF-8 (RFC 8259).
     */
    public boolean acceptsJson(RoutingContext ctx, boolean ndjsonToo) {
        String type = ctx.request().getHeader("content-type");
        if (type == null) {
            return true;
        }
        String[] parts = type.split(";");
        String media = parts[0].strip().toLowerCase(java.util.Locale.ROOT);
        boolean json = media.equals("application/json") || ndjsonToo && media.equals("application/x-ndjson");
        boolean utf8 = true;
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].strip().toLowerCase(java.util.Locale.ROOT);
            if (p.startsWith("charset=")) {
                String cs = p.substring(8).replace("\"", "");
                utf8 = cs.equals("utf-8") || cs.equals("utf8");
            }
        }
        if (json && utf8) {
            return true;
        }
        Responses.error(ctx, ApiError.of(415, "unsupported_media_type", "send application/json"
                + (ndjsonToo ? " or application/x-ndjson" : "") + " in UTF-8, not " + shorten(type)));
        return false;
    }

    /** A client's text echoed in an error, cut short: an error body stays small whatever was sent. */
    static String shorten(String s) {
        return s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }

    /** {@link #admin} as a route handler: the next handler runs only for an authorized request. */
    public void adminGate(RoutingContext ctx) {
        if (admin(ctx)) {
            ctx.next();
        }
    }

    /**
     * Admin endpoints: 401 without a bearer token, 403 with a wrong one, or when the
     * server has no admin token at all. The comparison takes the same time wherever the tokens
     * differ. True when the request may go on. On the public listener, while a separate admin
     * listener serves them, admin endpoints are 404 whatever the token: the public port then
     * offers no way to try tokens at all.
     */
    public boolean admin(RoutingContext ctx) {
        if (adminElsewhere) {
            Responses.error(ctx, ApiError.of(404, "not_found", "no such endpoint here: " + ctx.request().method() + " "
                    + shorten(ctx.request().path()) + " is served on the admin listener only"));
            return false;
        }
        String header = ctx.request().getHeader("authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            ctx.response().putHeader("www-authenticate", "Bearer");
            Responses.error(ctx, ApiError.of(401, "unauthorized", "this endpoint needs Authorization: Bearer <admin token>"));
            return false;
        }
        String expected = config.adminToken();
        byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        if (expected == null || !java.security.MessageDigest.isEqual(given, expected.getBytes(StandardCharsets.UTF_8))) {
            Responses.error(ctx, ApiError.of(403, "forbidden", expected == null
                    ? "this server has no admin token configured (--admin-token)" : "the admin token is wrong"));
            return false;
        }
        ctx.put(ADMIN, Boolean.TRUE);
        return true;
    }

    public static byte[] bodyBytes(RoutingContext ctx) {
        return ctx.body().buffer() == null ? new byte[0] : ctx.body().buffer().getBytes();
    }

    /** {@code ?explain=true}, or a {@code why_not}, which needs the explanation too. */
    public static boolean explain(RoutingContext ctx) {
        return "true".equals(ctx.queryParams().get("explain")) || whyNot(ctx) != null;
    }

    /** {@code ?why_not=<rule>}: the rule to answer for, or null. */
    public static String whyNot(RoutingContext ctx) {
        String rule = ctx.queryParams().get("why_not");
        return rule == null || rule.isBlank() ? null : rule;
    }

    /** A stateless decision endpoint: JSON in, the pack's decision out (a batch when asked). */
    public <I, D> Handler<RoutingContext> decide(DecisionPack<I, D> pack, String endpoint, boolean batch) {
        return ctx -> {
            if (!acceptsJson(ctx, batch)) {
                return;
            }
            byte[] in = bodyBytes(ctx);
            boolean explain = explain(ctx);
            String whyNot = whyNot(ctx);
            respond(ctx, !batch, () -> new Reply(200, batch ? decisions.decideBatch(pack, endpoint, in, explain, whyNot)
                    : decisions.decide(pack, endpoint, in, explain, whyNot)));
        };
    }

    /** A stateless decision address on the event bus, taking the same JSON as the endpoint. */
    public <I, D> void consumer(String address, DecisionPack<I, D> pack) {
        replyWith(address, true, (body, explain) -> new Reply(200, decisions.decide(pack, address, body, explain)));
    }

    /** Work that turns a request body into a response body. */
    @FunctionalInterface
    public interface BusWork {
        byte[] apply(byte[] body, boolean explain) throws Exception;
    }

    /** Work that turns a request body into a reply; a status of 400 or more fails the message. */
    @FunctionalInterface
    public interface BusReplyWork {
        Reply apply(byte[] body, boolean explain) throws Exception;
    }

    /**
     * An event-bus address: the body may be a JsonObject, a String or a Buffer of JSON; header
     * {@code explain: true} asks for the explanation; failures reply with the HTTP status as the
     * failure code and the error JSON as the message.
     */
    public void reply(String address, BusWork work) {
        replyWith(address, (body, explain) -> new Reply(200, work.apply(body, explain)));
    }

    /** Like {@link #reply}, for work whose outcome may be a refusal (failure code = its status). */
    public void replyWith(String address, BusReplyWork work) {
        replyWith(address, false, work);
    }

    /**
     * The bus side of {@link #respond(RoutingContext, boolean, Callable)}: the same guard, with
     * the key from header {@code idempotency-key} (or the body's {@code "id"}); a replayed reply
     * carries header {@code idempotent-replayed: true}.
     */
    private void replyWith(String address, boolean bodyId, BusReplyWork work) {
        vertx.eventBus().<Object>consumer(address, message -> {
            byte[] in = busBody(message);
            if (in == null) {
                return;
            }
            boolean explain = "true".equals(message.headers().get("explain"));
            String header = message.headers().get(IDEMPOTENCY_KEY);
            guard.run(vertx, () -> Idempotency.key("bus " + address, header != null || !bodyId ? header
                    : Idempotency.bodyId(in), in), () -> work.apply(in, explain), new Guard.Answer() {
                        @Override
                        public void reply(Reply r) {
                            if (r.status() >= 400) {
                                message.fail(r.status(), new String(r.body(), StandardCharsets.UTF_8));
                            } else {
                                message.reply(new JsonObject(Buffer.buffer(r.body())), new io.vertx.core.eventbus.DeliveryOptions()
                                        .addHeader("idempotent-replayed", String.valueOf(r.replayed())));
                            }
                        }

                        @Override
                        public void fail(ApiError e) {
                            message.fail(e.status(), Json.write(e.toJson()));
                        }
                    });
        });
    }

    private static byte[] busBody(Message<Object> message) {
        Object b = message.body();
        if (b instanceof JsonObject o) {
            return o.toBuffer().getBytes();
        } else if (b instanceof Buffer buf) {
            return buf.getBytes();
        } else if (b instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        message.fail(400, Json.write(ApiError.of(400, "invalid_input", "send a JsonObject, a String or a Buffer of JSON, not "
                + (b == null ? "null" : b.getClass().getSimpleName())).toJson()));
        return null;
    }
}
