package io.signalman.http;

import io.signalman.cluster.ClusterConfig;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.state.StateConfig;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * How a server runs. {@code adminToken} may be null (admin endpoints then refuse everything);
 * it is never logged: {@link #toString()} hides it.
 *
 * @param bodyLimit      request bodies above this many bytes get 413 (64 KiB by default)
 * @param workers        threads that evaluate rules and write nothing else
 * @param blockedWarnMs  Vert.x warns when an event-loop task runs longer than this
 * @param limits         deadline, in-flight bound and idempotency window
 * @param adminListener  where the admin endpoints are served instead of the public port, or null
 *                       to serve them on the public port
 * @param cluster        how to join a cluster, or null to serve alone
 * @param state          where state lives, its retention and its cap
 * @param acceptDataLoss start on a data directory with missing, foreign or corrupt pieces, going on
 *                       without them ({@code --accept-data-loss}); otherwise such a directory is refused
 * @param people         approvals needed before activation, the token hash cost, OIDC, the failed-login allowance
 * @param benchEndpoints serve the benchmarks' endpoints too ({@code --bench-endpoints}: {@code POST /bench/echo});
 *                       off unless asked, never for production
 * @param tracing        where spans go ({@code --otel-endpoint}), or off
 */
public record ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                           long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                           RequestLimits limits, AdminListener adminListener, ClusterConfig cluster, StateConfig state,
                           boolean acceptDataLoss, io.signalman.people.PeopleConfig people, boolean benchEndpoints,
                           io.signalman.tracing.TracingConfig tracing) {

    public ServerConfig {
        people = people == null ? io.signalman.people.PeopleConfig.defaults() : people;
        tracing = tracing == null ? io.signalman.tracing.TracingConfig.OFF : tracing;
    }

    /** The configuration before {@code tracing} existed: no spans. */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                        RequestLimits limits, AdminListener adminListener, ClusterConfig cluster, StateConfig state,
                        boolean acceptDataLoss, io.signalman.people.PeopleConfig people, boolean benchEndpoints) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits,
                adminListener, cluster, state, acceptDataLoss, people, benchEndpoints, null);
    }

    /** The configuration before {@code benchEndpoints} existed: the benchmarks' endpoints are not served. */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                        RequestLimits limits, AdminListener adminListener, ClusterConfig cluster, StateConfig state,
                        boolean acceptDataLoss, io.signalman.people.PeopleConfig people) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits,
                adminListener, cluster, state, acceptDataLoss, people, false);
    }

    /** The configuration before {@code people} existed: no approvals needed, the default token hash cost, no OIDC. */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                        RequestLimits limits, AdminListener adminListener, ClusterConfig cluster, StateConfig state,
                        boolean acceptDataLoss) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits,
                adminListener, cluster, state, acceptDataLoss, null);
    }

    /** The configuration before {@code acceptDataLoss} existed: a data directory that is not whole is refused. */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                        RequestLimits limits, AdminListener adminListener, ClusterConfig cluster, StateConfig state) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits,
                adminListener, cluster, state, false);
    }

    /** The configuration before {@code state} existed: durable state with the default retention and cap. */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                        RequestLimits limits, AdminListener adminListener, ClusterConfig cluster) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits,
                adminListener, cluster, StateConfig.defaults());
    }

    /**
     * A second listener that serves only the admin endpoints (still behind the bearer token), so
     * that they can be kept off the public port: bind it to loopback and the public network cannot
     * reach them at all. Port 0 picks a free port.
     */
    public record AdminListener(String host, int port) {
        public static final String DEFAULT_HOST = "127.0.0.1";

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /** The configuration before {@code limits} existed, with the default limits (keeps callers compiling). */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs,
                RequestLimits.defaults(), null, null);
    }

    /** The configuration before {@code cluster} existed: a server that serves alone. */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                        RequestLimits limits, AdminListener adminListener) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits,
                adminListener, null);
    }

    public static final long DEFAULT_BODY_LIMIT = 64 * 1024;

    public static ServerConfig defaults() {
        return new ServerConfig("127.0.0.1", 8080, Path.of("rules"), Path.of("replay-fixtures"), Path.of("data"), null,
                DEFAULT_BODY_LIMIT, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), FsyncPolicy.INTERVAL,
                100_000, 2000);
    }

    /** Binds the public port to {@code h} ({@code serve --host}). */
    public ServerConfig withHost(String h) {
        return with(copy -> copy.host = h);
    }

    public ServerConfig withPort(int p) {
        return with(copy -> copy.port = p);
    }

    public ServerConfig withRules(Path r) {
        return with(copy -> copy.rules = r);
    }

    public ServerConfig withFixtures(Path f) {
        return with(copy -> copy.fixtures = f);
    }

    public ServerConfig withAdminToken(String token) {
        return with(copy -> copy.adminToken = token);
    }

    public ServerConfig withData(Path d) {
        return with(copy -> copy.data = d);
    }

    public ServerConfig withBlockedWarnMs(long ms) {
        return with(copy -> copy.blockedWarnMs = ms);
    }

    public ServerConfig withWorkers(int n) {
        return with(copy -> copy.workers = n);
    }

    public ServerConfig withLimits(RequestLimits l) {
        return with(copy -> copy.limits = l);
    }

    public ServerConfig withBodyLimit(long bytes) {
        return with(copy -> copy.bodyLimit = bytes);
    }

    /** Serves the admin endpoints on {@code host:port} only (the public port answers them 404). */
    public ServerConfig withAdminListener(String adminHost, int adminPort) {
        return with(copy -> copy.adminListener = new AdminListener(adminHost, adminPort));
    }

    /** Joins the cluster {@code c} describes. */
    public ServerConfig withCluster(ClusterConfig c) {
        return with(copy -> copy.cluster = c);
    }

    /** Keeps state as {@code s} says (durable or not, retention, cap, PostgreSQL). */
    public ServerConfig withState(StateConfig s) {
        return with(copy -> copy.state = s);
    }

    /** Forces writes as {@code f} says (decision log and state alike). */
    public ServerConfig withFsync(FsyncPolicy f) {
        return with(copy -> copy.fsync = f);
    }

    /** Starts on a data directory that is not whole, going on without what is missing ({@code --accept-data-loss}). */
    public ServerConfig withAcceptDataLoss(boolean accept) {
        return with(copy -> copy.acceptDataLoss = accept);
    }

    /** Treats people as {@code p} says (approvals, token hashing, OIDC, the failed-login allowance). */
    public ServerConfig withPeople(io.signalman.people.PeopleConfig p) {
        return with(copy -> copy.people = p);
    }

    /**
     * Serves the benchmarks' endpoints too ({@code --bench-endpoints}): {@code POST /bench/echo}, the
     * floor a decision endpoint is measured against. Off by default, and never for production.
     */
    public ServerConfig withBenchEndpoints(boolean on) {
        return with(copy -> copy.benchEndpoints = on);
    }

    /** Sends spans as {@code t} says ({@code --otel-endpoint}); off by default. */
    public ServerConfig withTracing(io.signalman.tracing.TracingConfig t) {
        return with(copy -> copy.tracing = t);
    }

    /**
     * The one copy the withers above make, each changing one component: a component added to the
     * record is carried over here, not in every wither.
     */
    private ServerConfig with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** Every component of a configuration, to change one before {@link #build()}. */
    private static final class Copy {
        private String host;
        private int port;
        private Path rules;
        private Path fixtures;
        private Path data;
        private String adminToken;
        private long bodyLimit;
        private int workers;
        private FsyncPolicy fsync;
        private int logQueue;
        private long blockedWarnMs;
        private RequestLimits limits;
        private AdminListener adminListener;
        private ClusterConfig cluster;
        private StateConfig state;
        private boolean acceptDataLoss;
        private io.signalman.people.PeopleConfig people;
        private boolean benchEndpoints;
        private io.signalman.tracing.TracingConfig tracing;

        Copy(ServerConfig from) {
            host = from.host;
            port = from.port;
            rules = from.rules;
            fixtures = from.fixtures;
            data = from.data;
            adminToken = from.adminToken;
            bodyLimit = from.bodyLimit;
            workers = from.workers;
            fsync = from.fsync;
            logQueue = from.logQueue;
            blockedWarnMs = from.blockedWarnMs;
            limits = from.limits;
            adminListener = from.adminListener;
            cluster = from.cluster;
            state = from.state;
            acceptDataLoss = from.acceptDataLoss;
            people = from.people;
            benchEndpoints = from.benchEndpoints;
            tracing = from.tracing;
        }

        ServerConfig build() {
            return new ServerConfig(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue,
                    blockedWarnMs, limits, adminListener, cluster, state, acceptDataLoss, people, benchEndpoints, tracing);
        }
    }

    public Path decisionsDir() {
        return data.resolve("decisions");
    }

    /** Where a single node keeps its state. */
    public Path stateDir() {
        return data.resolve("state");
    }

    @Override
    public String toString() {
        return "host=" + host + " port=" + port + " rules=" + rules + " fixtures=" + fixtures + " data=" + data
                + " admin-token=" + (adminToken == null ? "unset" : "set") + " body-limit=" + bodyLimit
                + " workers=" + workers + " fsync=" + fsync.name().toLowerCase(java.util.Locale.ROOT) + " " + limits
                + " admin-listener=" + (adminListener == null ? "public-port" : adminListener)
                + (cluster == null ? "" : " " + cluster) + " " + state + (acceptDataLoss ? " accept-data-loss" : "") + " " + people
                + (benchEndpoints ? " bench-endpoints" : "") + " " + tracing;
    }
}
