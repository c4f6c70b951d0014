package io.signalman.http;

import io.signalman.Packs;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.engine.BundleException;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleBundle;
import io.signalman.state.StateStores;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Signalman: the engine with its bundle, the decision log, Vert.x with the HTTP API and
 * the event-bus addresses. {@link #close()} is the graceful shutdown: stop accepting, finish what
 * is in flight, write the decision log to disk, stop Vert.x.
 */
public final class Server implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Server.class);

    private final Vertx vertx;
    private final Engine engine;
    private final DecisionLog log;
    private final HttpApi http;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Server(Vertx vertx, Engine engine, DecisionLog log, HttpApi http) {
        this.vertx = vertx;
        this.engine = engine;
        this.log = log;
        this.http = http;
    }

    /**
     * Loads the bundle, opens the log, starts listening. Blocking; called from a plain thread.
     *
     * @throws BundleException when the rules do not compile: a server never starts on bad rules
     */
    public static Server start(ServerConfig config) throws BundleException {
        Engine engine = new Engine(config.rules(), Packs.compiler());
        RuleBundle bundle = engine.load();
        LOG.info("loaded rules {} ({} packs) from {}", bundle.revision(), bundle.packs().size(), config.rules());
        bundle.warnings().forEach(w -> LOG.warn("rules: {}", w));
        DecisionLog log = new DecisionLog(config.decisionsDir(), config.fsync(), config.logQueue());
        Vertx vertx = Vertx.vertx(new VertxOptions()
                .setBlockedThreadCheckInterval(Math.max(10, config.blockedWarnMs() / 2))
                .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
                .setMaxEventLoopExecuteTime(config.blockedWarnMs())
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS));
        Decisions decisions = new Decisions(engine, log, new StateStores());
        HttpApi http = new HttpApi(decisions, config);
        try {
            vertx.deployVerticle(http).await();
            vertx.deployVerticle(new EventBusApi(decisions, config)).await();
        } catch (RuntimeException e) {
            vertx.close().await();
            log.close();
            throw e;
        }
        LOG.info("serving on http://{}:{} ({}); decision log {}", config.host(), http.port(), config, log.currentFile());
        return new Server(vertx, engine, log, http);
    }

    public int port() {
        return http.port();
    }

    public Vertx vertx() {
        return vertx;
    }

    public Engine engine() {
        return engine;
    }

    public DecisionLog decisionLog() {
        return log;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LOG.info("shutting down: finishing in-flight requests");
        try {
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("vert.x did not close cleanly: {}", e.toString());
        }
        log.close();
        LOG.info("stopped; {} decisions written to {}", log.written(), log.directory());
    }
}
