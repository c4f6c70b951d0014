package io.signalman.http;

import io.signalman.decisionlog.FsyncPolicy;
import java.nio.file.Path;

/**
 * How a server runs. {@code adminToken} may be null (admin endpoints then refuse everything);
 * it is never logged: {@link #toString()} hides it.
 *
 * @param bodyLimit      request bodies above this many bytes get 413 (SPEC 5: 64 KiB)
 * @param workers        threads that evaluate rules and write nothing else
 * @param blockedWarnMs  Vert.x warns when an event-loop task runs longer than this
 * @param limits         deadline, in-flight bound and idempotency window (SPEC 8)
 */
public record ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                           long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs,
                           RequestLimits limits) {

    /** The configuration before {@code limits} existed, with the default limits (keeps callers compiling). */
    public ServerConfig(String host, int port, Path rules, Path fixtures, Path data, String adminToken,
                        long bodyLimit, int workers, FsyncPolicy fsync, int logQueue, long blockedWarnMs) {
        this(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs,
                RequestLimits.defaults());
    }

    public static final long DEFAULT_BODY_LIMIT = 64 * 1024;

    public static ServerConfig defaults() {
        return new ServerConfig("127.0.0.1", 8080, Path.of("rules"), Path.of("replay-fixtures"), Path.of("data"), null,
                DEFAULT_BODY_LIMIT, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), FsyncPolicy.INTERVAL,
                100_000, 2000);
    }

    public ServerConfig withPort(int p) {
        return new ServerConfig(host, p, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits);
    }

    public ServerConfig withRules(Path r) {
        return new ServerConfig(host, port, r, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits);
    }

    public ServerConfig withFixtures(Path f) {
        return new ServerConfig(host, port, rules, f, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits);
    }

    public ServerConfig withAdminToken(String token) {
        return new ServerConfig(host, port, rules, fixtures, data, token, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits);
    }

    public ServerConfig withData(Path d) {
        return new ServerConfig(host, port, rules, fixtures, d, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, limits);
    }

    public ServerConfig withBlockedWarnMs(long ms) {
        return new ServerConfig(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, ms, limits);
    }

    public ServerConfig withWorkers(int n) {
        return new ServerConfig(host, port, rules, fixtures, data, adminToken, bodyLimit, n, fsync, logQueue, blockedWarnMs, limits);
    }

    public ServerConfig withLimits(RequestLimits l) {
        return new ServerConfig(host, port, rules, fixtures, data, adminToken, bodyLimit, workers, fsync, logQueue, blockedWarnMs, l);
    }

    public Path decisionsDir() {
        return data.resolve("decisions");
    }

    @Override
    public String toString() {
        return "host=" + host + " port=" + port + " rules=" + rules + " fixtures=" + fixtures + " data=" + data
                + " admin-token=" + (adminToken == null ? "unset" : "set") + " body-limit=" + bodyLimit
                + " workers=" + workers + " fsync=" + fsync.name().toLowerCase(java.util.Locale.ROOT) + " " + limits;
    }
}
