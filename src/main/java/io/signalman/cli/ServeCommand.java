package io.signalman.cli;

import io.signalman.cluster.ClusterConfig;
import io.signalman.datadir.DataDirRefused;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.engine.BundleException;
import io.signalman.engine.GateRefused;
import io.signalman.http.ConnectionLimits;
import io.signalman.http.RequestLimits;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.workbench.WorkbenchOptions;
import io.signalman.state.StateConfig;
import io.signalman.people.HashCost;
import io.signalman.people.OidcConfig;
import io.signalman.people.PeopleConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** {@code signalman serve}: runs until SIGTERM or SIGINT, then shuts down gracefully. */
final class ServeCommand {

    /** The flags that take a value. */
    private static final Set<String> VALUED = Set.of("host", "port", "rules", "fixtures", "data", "admin-token", "fsync",
            "workers", "body-limit", "deadline-ms", "max-in-flight", "idempotency-window-s", "idempotency-keys", "admin-host",
            "admin-port", "cluster-host", "cluster-port", "members", "cluster-quorum", "state-retention", "state-idle-retention",
            "state-max-entries", "state-jdbc", "idle-timeout", "request-timeout", "max-connections", "workbench-token",
            "admin-token-name", "approvals", "token-hash-memory-kib", "token-hash-iterations", "auth-failures-per-minute",
            "oidc-issuer", "oidc-audience", "oidc-jwks", "oidc-roles-claim", "oidc-name-claim", "oidc-leeway-s", "notify-webhook",
            "otel-endpoint", "otel-sample-ratio", AuditKeyOption.FLAG);
    /** The flags that are on when given. */
    private static final Set<String> BOOLEANS = Set.of("cluster", "accept-data-loss", "bench-endpoints", "rules-git");

    private ServeCommand() {
    }

    /** Deadline, in-flight bound and idempotency window; defaults from {@link RequestLimits}. */
    private static RequestLimits limits(Args a) throws Args.UsageException {
        RequestLimits d = RequestLimits.defaults();
        ConnectionLimits c = d.connections();
        try {
            return new RequestLimits(a.getInt("deadline-ms", (int) d.deadlineMs()), a.getInt("max-in-flight", d.maxInFlight()),
                    java.time.Duration.ofSeconds(a.getInt("idempotency-window-s", (int) d.idempotencyWindow().toSeconds())),
                    a.getInt("idempotency-keys", d.idempotencyKeys()),
                    new ConnectionLimits(a.getInt("idle-timeout", c.idleTimeoutS()), a.getInt("request-timeout", c.requestTimeoutS()),
                            a.getInt("max-connections", c.maxConnections())));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    /** {@code --cluster} joins the members given (TCP/IP only), or null to serve alone. */
    private static ClusterConfig cluster(Args a) throws Args.UsageException {
        if (!a.has("cluster")) {
            for (String f : new String[] {"cluster-host", "cluster-port", "members", "cluster-quorum"}) {
                if (a.get(f, null) != null) {
                    throw new Args.UsageException("--" + f + " needs --cluster");
                }
            }
            return null;
        }
        try {
            return new ClusterConfig(a.get("cluster-host", ClusterConfig.DEFAULT_HOST),
                    a.getInt("cluster-port", ClusterConfig.DEFAULT_PORT), ClusterConfig.parseMembers(a.get("members", "")),
                    a.getInt("cluster-quorum", 0));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    /**
     * A stop asked for (SIGTERM from a supervisor, Ctrl-C at {@code make run}) is a clean exit:
     * the shutdown hook still drains and closes the server, and the exit status is 0, not the
     * JVM's 128+signal, which {@code make} reports as an error ("Error 143").
     */
    @SuppressWarnings("sunapi")
    private static void stopCleanlyOn(String signal) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> new Thread(() -> System.exit(0), "signalman-stop").start());
        } catch (IllegalArgumentException e) {
            // The platform does not have this signal or the JVM reserves it (-Xrs): the default exit applies.
        }
    }

    /**
     * Where state lives and for how long. PostgreSQL's user and password come from the
     * environment only ({@code SIGNALMAN_STATE_JDBC_USER}/{@code _PASSWORD}, else {@code PGUSER}/
     * {@code PGPASSWORD}), never from the command line, where {@code ps} would show them.
     */
    private static StateConfig state(Args a) throws Args.UsageException {
        StateConfig d = StateConfig.defaults();
        try {
            return new StateConfig(true,
                    a.get("state-retention", null) == null ? d.retention()
                            : StateConfig.parseDuration("state-retention", a.get("state-retention", null)),
                    a.get("state-idle-retention", null) == null ? d.idleRetention()
                            : StateConfig.parseDuration("state-idle-retention", a.get("state-idle-retention", null)),
                    a.getInt("state-max-entries", d.maxEntries()), a.get("state-jdbc", null), d.clock());
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    /**
     * How people are treated: approvals before activation ({@code --approvals N}, 0 unless given),
     * the cost of new token hashes, the failed-authentication allowance per address, bearer
     * JWTs of an OpenID Connect provider when {@code --oidc-jwks} (with issuer and audience) is given,
     * and the audit log's key ({@code --audit-key-file}).
     */
    private static PeopleConfig people(Args a) throws Args.UsageException {
        PeopleConfig d = PeopleConfig.defaults();
        try {
            HashCost cost = new HashCost(a.getInt("token-hash-memory-kib", d.hashCost().memoryKiB()),
                    a.getInt("token-hash-iterations", d.hashCost().iterations()), d.hashCost().lanes());
            OidcConfig oidc = null;
            if (a.get("oidc-jwks", null) != null || a.get("oidc-issuer", null) != null || a.get("oidc-audience", null) != null) {
                oidc = new OidcConfig(a.get("oidc-issuer", null), a.get("oidc-audience", null), a.get("oidc-jwks", null),
                        a.get("oidc-roles-claim", null), a.get("oidc-name-claim", null),
                        a.getInt("oidc-leeway-s", OidcConfig.DEFAULT_LEEWAY_SECONDS));
            } else {
                for (String f : new String[] {"oidc-roles-claim", "oidc-name-claim", "oidc-leeway-s"}) {
                    if (a.get(f, null) != null) {
                        throw new Args.UsageException("--" + f + " needs --oidc-issuer, --oidc-audience and --oidc-jwks");
                    }
                }
            }
            return d.withApprovals(a.getInt("approvals", 0)).withHashCost(cost).withOidc(oidc)
                    .withFailuresPerMinute(a.getInt("auth-failures-per-minute", PeopleConfig.DEFAULT_FAILURES_PER_MINUTE))
                    .withAuditKey(AuditKeyOption.of(a, Path.of(a.get("data", "data"))))
                    .withNotifyWebhook(a.get("notify-webhook", null) == null ? null
                            : io.signalman.notify.Webhook.check(java.net.URI.create(a.get("notify-webhook", null).strip())));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    /**
     * {@code --otel-endpoint URL} sends spans over OTLP/HTTP, {@code --otel-sample-ratio R} of the new
     * traces (1 unless given); without the endpoint tracing is off, and a ratio alone is a mistake.
     */
    private static io.signalman.tracing.TracingConfig tracing(Args a) throws Args.UsageException {
        String endpoint = a.get("otel-endpoint", null);
        String ratio = a.get("otel-sample-ratio", null);
        if (endpoint == null) {
            if (ratio != null) {
                throw new Args.UsageException("--otel-sample-ratio needs --otel-endpoint");
            }
            return io.signalman.tracing.TracingConfig.OFF;
        }
        double r;
        try {
            r = ratio == null ? 1.0 : Double.parseDouble(ratio.strip());
        } catch (NumberFormatException e) {
            throw new Args.UsageException("--otel-sample-ratio must be a number from 0 to 1, not " + ratio);
        }
        try {
            return io.signalman.tracing.TracingConfig.otlp(endpoint, r);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }

    /** What stopped a start, in one line: a port in use is named as such, with the address. */
    static String startFailure(ServerConfig config, Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof java.net.BindException || String.valueOf(root.getMessage()).contains("Address already in use")) {
            return "cannot listen on " + config.host() + ":" + config.port()
                    + (config.adminListener() == null ? "" : " or " + config.adminListener())
                    + ": the address is already in use (another server on that port?); not serving";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** The command line (and the environment's SIGNALMAN_* fallbacks) as flags. */
    static Args args(String[] argv, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, BudgetFlags.with(VALUED), BOOLEANS, env);
        if (!a.positional().isEmpty()) {
            throw new Args.UsageException("serve takes no positional arguments: " + a.positional());
        }
        return a;
    }

    /** The server's configuration from the flags; a usage error for a flag that is wrong or missing its partner. */
    static ServerConfig config(Args a) throws Args.UsageException {
        ServerConfig d = ServerConfig.defaults();
        String token = a.get("admin-token", null);
        if (token != null && token.isBlank()) {
            // An empty SIGNALMAN_ADMIN_TOKEN= would read as "set"; no token is a choice, an empty one a mistake.
            throw new Args.UsageException("the admin token is empty (--admin-token or SIGNALMAN_ADMIN_TOKEN); give a token, "
                    + "or leave both unset to refuse every admin call; not serving");
        }
        FsyncPolicy fsync;
        try {
            fsync = FsyncPolicy.parse(a.get("fsync", "interval"));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        ServerConfig base = new ServerConfig(a.get("host", d.host()), a.getInt("port", d.port()),
                Path.of(a.get("rules", "rules")), Path.of(a.get("fixtures", "replay-fixtures")), Path.of(a.get("data", "data")),
                token, a.getInt("body-limit", (int) d.bodyLimit()), a.getInt("workers", d.workers()),
                fsync, d.logQueue(), d.blockedWarnMs(), limits(a), null);
        // A rule sees texts up to the body limit: the cost model judges its patterns against that length.
        BudgetFlags.apply(a, base.bodyLimit());
        if (a.get("admin-port", null) == null && a.get("admin-host", null) != null) {
            throw new Args.UsageException("--admin-host needs --admin-port");
        }
        ServerConfig withAdmin = a.get("admin-port", null) == null ? base
                : base.withAdminListener(a.get("admin-host", ServerConfig.AdminListener.DEFAULT_HOST), a.getInt("admin-port", 0));
        ServerConfig config = withAdmin.withCluster(cluster(a)).withState(state(a)).withAcceptDataLoss(a.has("accept-data-loss"))
                .withPeople(people(a)).withBenchEndpoints(a.has("bench-endpoints")).withTracing(tracing(a));
        if (config.state().jdbcUrl() != null && config.cluster() == null) {
            throw new Args.UsageException("--state-jdbc needs --cluster (a single node keeps its state under --data)");
        }
        return config;
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = args(argv, env);
        ServerConfig config = config(a);
        Server server;
        try {
            server = Server.start(config, new WorkbenchOptions(a.get("workbench-token", null), a.get("admin-token-name", null),
                    a.has("rules-git")));
        } catch (GateRefused e) {
            e.errors().forEach(x -> err.println(CheckCommand.located(config.rules(), x, "error")));
            err.println("signalman: the rules compile, but the gate refused them (" + e.errors().size()
                    + " reason(s), invariant violations first); not serving");
            return 1;
        } catch (BundleException e) {
            e.errors().forEach(x -> err.println(CheckCommand.located(config.rules(), x, "error")));
            err.println("signalman: the rules do not compile; not serving");
            return 1;
        } catch (DataDirRefused e) {
            err.println("signalman: cannot start: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            // Vert.x rethrows a failed listen as it is (a checked BindException included): one line, not a stack.
            err.println("signalman: cannot start: " + startFailure(config, e));
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "signalman-shutdown"));
        stopCleanlyOn("TERM");
        stopCleanlyOn("INT");
        out.printf("signalman serving http://%s:%d (rules %s)%n", config.host(), server.port(),
                server.engine().bundle().revision());
        if (config.cluster() != null) {
            out.printf("signalman cluster member %s%n", config.cluster().address());
        }
        if (config.benchEndpoints()) {
            out.printf("signalman bench endpoints on (POST /bench/echo, --bench-endpoints): for benchmarks only, not for production%n");
        }
        if (config.adminListener() != null) {
            out.printf("signalman admin endpoints on http://%s:%d only%n", config.adminListener().host(), server.adminPort());
            out.printf("signalman workbench on http://%s:%d/workbench/%n", config.adminListener().host(), server.adminPort());
        } else {
            out.printf("signalman workbench on http://%s:%d/workbench/%n", config.host(), server.port());
        }
        return 0;
    }
}
