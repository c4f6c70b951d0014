package io.signalman.http;

import io.signalman.decisions.Decisions;
import io.signalman.decisions.Queued;
import io.signalman.engine.DecisionPack;
import io.signalman.json.Json;
import io.signalman.tracing.Tracing;
import io.signalman.people.People;
import io.signalman.people.PeopleRefused;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
    /** Who a token belongs to, the audit log, the approvals. */
    private final People people;
    /** Where a token is checked when that takes a slow hash: never the event loop. */
    private final WorkerExecutor authWorkers;

    Api(Vertx vertx, Decisions decisions, WorkerExecutor unguarded, ServerConfig config, Guard guard, People people,
        WorkerExecutor authWorkers) {
        this(vertx, decisions, unguarded, config, guard, config.adminListener() != null, people, authWorkers);
    }

    private Api(Vertx vertx, Decisions decisions, WorkerExecutor unguarded, ServerConfig config, Guard guard,
                boolean adminElsewhere, People people, WorkerExecutor authWorkers) {
        this.vertx = vertx;
        this.decisions = decisions;
        this.unguarded = unguarded;
        this.config = config;
        this.guard = guard;
        this.adminElsewhere = adminElsewhere;
        this.people = people;
        this.authWorkers = authWorkers;
        this.body = BodyHandler.create(false).setBodyLimit(config.bodyLimit());
    }

    /** The same, for the routes of the admin listener, where the admin endpoints are served. */
    Api onAdminListener() {
        return new Api(vertx, decisions, unguarded, config, guard, false, people, authWorkers);
    }

    /** The people of this server: its users, its audit log, the approvals, who a token belongs to. */
    public People people() {
        return people;
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
    public record Reply(int status, byte[] body, boolean replayed, Queued queued) {
        public Reply(int status, byte[] body) {
            this(status, body, false, null);
        }

        public Reply(int status, byte[] body, boolean replayed) {
            this(status, body, replayed, null);
        }

        /** A decision's 200, to be sent once its record is durable: the guard sends it then, no thread waiting meanwhile. */
        static Reply queued(Queued decided) {
            return new Reply(200, decided.body(), false, decided);
        }

        /** This reply once its record is durable, waiting for that on this thread (nothing to wait for when not queued). */
        Reply awaited() {
            return queued == null ? this : new Reply(status, queued.await(), replayed, null);
        }
    }

    /** The header a client names a request with, so that a retry is answered, not redone. */
    static final String IDEMPOTENCY_KEY = "idempotency-key";

    /** Set on a request that passed a {@link #gate}: its work runs on the operators' threads. */
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
     * passed a {@link #gate} runs as admin work ({@link Guard#runAdmin}): set apart from clients'
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
        // The request's trace goes with its work to the decision threads: its decision's span and record name it.
        Callable<Reply> traced = Tracing.carried(Tracing.incoming(ctx.request().headers()), work);
        if (Boolean.TRUE.equals(ctx.get(ADMIN))) {
            guard.runAdmin(vertx, keys, traced, answer);
        } else {
            guard.run(vertx, keys, traced, answer);
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

    /** The routing-context key of the request's {@link Principal}, once a gate let it through. */
    private static final String PRINCIPAL = "signalman.principal";

    /**
     * A route handler that lets through only a request whose bearer token belongs to someone with
     * {@code role}: 401 without a bearer token, 403 for a token that is not valid (whatever the
     * reason: the answer does not tell a wrong token from a removed one), 403 naming the role for
     * someone without it, 429 (with {@code Retry-After}) for an address that failed too often.
     * The token is checked on the {@code signalman-auth} threads when that takes a slow hash, so
     * the next handler may run on a worker's callback, back on the request's event loop. On the
     * public listener, while a separate admin listener serves these endpoints, the answer is 404
     * whatever the token: the public port then offers no way to try tokens at all.
     */
    public Handler<RoutingContext> gate(Role role) {
        return ctx -> {
            if (adminElsewhere) {
                Responses.error(ctx, ApiError.of(404, "not_found", "no such endpoint here: " + ctx.request().method() + " "
                        + shorten(ctx.request().path()) + " is served on the admin listener only"));
                return;
            }
            authenticate(ctx, p -> {
                if (!p.has(role)) {
                    ObjectNode d = Json.object().put("needs_role", role.wire()).put("user", p.name());
                    p.roleNames().forEach(d.putArray("roles")::add);
                    Responses.error(ctx, new ApiError(403, "forbidden", "this needs the role " + role.wire() + "; "
                            + p.name() + " has " + (p.roles().isEmpty() ? "none" : String.join(", ", p.roleNames())), d));
                    return;
                }
                ctx.put(PRINCIPAL, p);
                ctx.put(ADMIN, Boolean.TRUE);
                ctx.next();
            });
        };
    }

    /**
     * Checks the request's bearer token and hands its principal to {@code then}, or answers the
     * refusal (401, 403, 429). Event loop; the slow part runs on the auth threads.
     */
    public void authenticate(RoutingContext ctx, java.util.function.Consumer<Principal> then) {
        String token = bearer(ctx);
        if (token == null) {
            ctx.response().putHeader("www-authenticate", "Bearer");
            Responses.error(ctx, ApiError.of(401, "unauthorized", "this endpoint needs Authorization: Bearer <token> (a user's "
                    + "token, the admin token" + (config.people().oidc() == null ? "" : ", or a JWT of the identity provider") + ")"));
            return;
        }
        Principal quick = people.authenticator().remembered(token);
        if (quick != null) {
            then.accept(quick);
            return;
        }
        String address = ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().hostAddress();
        authWorkers.executeBlocking(() -> people.authenticator().authenticate(token, address), false)
                .onSuccess(then::accept)
                .onFailure(err -> refuse(ctx, err));
    }

    private static void refuse(RoutingContext ctx, Throwable err) {
        if (err instanceof PeopleRefused r && r.retryAfterSeconds() > 0) {
            ctx.response().putHeader("retry-after", Long.toString(r.retryAfterSeconds()));
        }
        Responses.error(ctx, ApiError.from(err));
    }

    /** The bearer token of the request's {@code Authorization} header, or null; never read from the URL or a cookie. */
    public static String bearer(RoutingContext ctx) {
        String header = ctx.request().getHeader("authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** The principal a {@link #gate} let through, or null on an ungated route. */
    public static Principal principal(RoutingContext ctx) {
        return ctx.get(PRINCIPAL);
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
            respond(ctx, !batch, () -> batch ? new Reply(200, decisions.decideBatch(pack, endpoint, in, explain, whyNot))
                    : Reply.queued(decisions.decideQueued(pack, endpoint, in, explain, whyNot)));
        };
    }

    /** A stateless decision address on the event bus, taking the same JSON as the endpoint. */
    public <I, D> void consumer(String address, DecisionPack<I, D> pack) {
        replyWith(address, true, (body, explain) -> Reply.queued(decisions.decideQueued(pack, address, body, explain, null)));
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
                    : Idempotency.bodyId(in), in), Tracing.carried(Tracing.incoming(message.headers()), () -> work.apply(in, explain)),
                    new Guard.Answer() {
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
