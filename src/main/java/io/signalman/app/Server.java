package io.signalman.app;

import io.signalman.decisions.Decisions;
import io.signalman.http.EventBusApi;
import io.signalman.http.Guard;
import io.signalman.http.HttpApi;
import io.signalman.http.Metrics;
import io.signalman.http.ServerConfig;
import io.signalman.http.Workers;
import io.signalman.packs.Packs;
import io.signalman.cluster.Cluster;
import io.signalman.cluster.ClusterState;
import io.signalman.cluster.ClusterView;
import io.signalman.cluster.StateDatabase;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.engine.BundleException;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.BundleWatcher;
import io.signalman.engine.Gate;
import io.signalman.fsm.FsmService;
import io.signalman.fsm.OrphanGate;
import io.signalman.replay.ReplayGate;
import io.signalman.packs.StateSpecs;
import io.signalman.scenario.ScenarioGate;
import io.signalman.state.AnswerNeeds;
import io.signalman.state.LocalAnswers;
import io.signalman.state.LocalState;
import io.signalman.state.StateStores;
import io.signalman.state.StoreSpec;
import io.signalman.trials.TrialOptions;
import io.signalman.trials.Trials;
import java.util.concurrent.atomic.AtomicReference;
import java.util.List;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Signalman: the engine with its bundle and its reload gate (the golden history, the
 * bundle's scenarios, no orphaned FSM state), a watcher that reloads when the rules or fixtures change, the decision
 * log, Vert.x with the HTTP API and the event-bus addresses. {@link #close()} is the graceful shutdown: stop accepting, finish what
 * is in flight, write the decision log to disk, stop Vert.x.
 */
public final class Server implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Server.class);
    /** Who stops a trial that stops by itself, in the audit log. */
    private static final io.signalman.people.Principal TRIALS = new io.signalman.people.Principal("signalman",
            java.util.EnumSet.noneOf(io.signalman.people.Role.class), "trial");

    private final Vertx vertx;
    private final Engine engine;
    private final DecisionLog log;
    private final HttpApi http;
    private final BundleWatcher watcher;
    private final Guard guard;
    private final BlockedThreads blocked;
    private final Metrics metrics;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** A single node's state and idempotency answers (null in a cluster; answers null in memory). */
    private final LocalState local;
    private final LocalAnswers answers;
    /** A cluster member's state upkeep (null alone). */
    private final ClusterState clusterState;
    /** How long an activation's answer waits, at most, for every reachable member to serve its revision. */
    static final long ACTIVATION_WAIT_MILLIS = 15_000;
    /** The control plane (this data directory, or the cluster's) and, in a cluster, the rules folder's mirror of it. */
    private final io.signalman.control.ControlStore control;
    private final io.signalman.workbench.RulesMirror mirror;
    /** {@code --notify-webhook}, or null. */
    private final io.signalman.notify.Webhook webhook;
    /** The data directory this server owns (its lock is released last, at close). */
    private final DataDir data;
    private final Storage storage;
    /** The users, the audit log, the approvals (closed after Vert.x: the last requests may record). */
    private final io.signalman.people.People people;
    private final Trials trials;
    /** Spans of requests and decisions ({@code --otel-endpoint}), or off. */
    private final io.signalman.tracing.Tracing tracing;

    /** How often the rules and fixtures folders are looked at for changes. */
    static final long WATCH_MILLIS = 250;

    private Server(Vertx vertx, Engine engine, DecisionLog log, HttpApi http, BundleWatcher watcher, Guard guard,
                   BlockedThreads blocked, LocalState local, LocalAnswers answers, Metrics metrics,
                   ClusterState clusterState, DataDir data, Storage storage, Trials trials,
                   io.signalman.people.People people, io.signalman.control.ControlStore control,
                   io.signalman.workbench.RulesMirror mirror, io.signalman.notify.Webhook webhook,
                   io.signalman.tracing.Tracing tracing) {
        this.tracing = tracing;
        this.webhook = webhook;
        this.people = people;
        this.control = control;
        this.mirror = mirror;
        this.data = data;
        this.trials = trials;
        this.storage = storage;
        this.metrics = metrics;
        this.local = local;
        this.answers = answers;
        this.clusterState = clusterState;
        this.vertx = vertx;
        this.engine = engine;
        this.log = log;
        this.http = http;
        this.watcher = watcher;
        this.guard = guard;
        this.blocked = blocked;
    }

    /**
     * Loads the bundle, opens the log, starts listening. Blocking; called from a plain thread.
     *
     * @throws BundleException when the rules do not compile: a server never starts on bad rules
     */
    public static Server start(ServerConfig config) throws BundleException {
        if (!java.nio.charset.Charset.defaultCharset().equals(java.nio.charset.StandardCharsets.UTF_8)) {
            LOG.warn("the JVM's default charset is {}, not UTF-8: Drools reads rule files in it, so text beyond ASCII in a rule "
                    + "(a name, a reason, a quoted value) is misread; start java with -Dfile.encoding=UTF-8 (bin/signalman and "
                    + "the image do)", java.nio.charset.Charset.defaultCharset());
        }
        return start(config, Disk.REAL);
    }

    /**
     * The same, compiling {@code packs} instead of the shipped packs' definitions: for a pack
     * whose vocabulary or reference data a test extends. Every rule file is checked against the
     * vocabulary of the definition it belongs to, as always.
     */
    public static Server start(ServerConfig config, java.util.List<io.signalman.engine.PackDefinition> packs)
            throws BundleException {
        return start(config, io.signalman.workbench.WorkbenchOptions.defaults(), Disk.configured(), packs);
    }

    /** The same, with every data file written through {@code disk} (tests make it refuse writes). */
    public static Server start(ServerConfig config, Disk disk) throws BundleException {
        return start(config, io.signalman.workbench.WorkbenchOptions.defaults(), disk);
    }

    /**
     * The same, with the analysts' workbench served as {@code workbench} says, on the
     * disk the system properties configure (the real one, unless a test asks for its seams).
     */
    public static Server start(ServerConfig config, io.signalman.workbench.WorkbenchOptions workbench) throws BundleException {
        return start(config, workbench, Disk.configured());
    }

    private static Server start(ServerConfig config, io.signalman.workbench.WorkbenchOptions workbench, Disk disk)
            throws BundleException {
        return start(config, workbench, disk, Packs.definitions());
    }

    private static Server start(ServerConfig config, io.signalman.workbench.WorkbenchOptions workbench, Disk disk,
                                java.util.List<io.signalman.engine.PackDefinition> packs) throws BundleException {
        Metrics metrics = new Metrics();
        VertxOptions options = new VertxOptions()
                .setBlockedThreadCheckInterval(Math.max(10, config.blockedWarnMs() / 2))
                .setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS)
                .setMaxEventLoopExecuteTime(config.blockedWarnMs())
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS);
        Cluster cluster = config.cluster() == null ? null : new Cluster(config.cluster(), config.state().jdbcUrl() == null
                ? null : new StateDatabase(config.state().jdbcUrl(), System.getenv()).migrate());
        io.signalman.tracing.Tracing tracing = io.signalman.tracing.Tracing.start(config.tracing(),
                config.cluster() == null ? config.host() + ":" + config.port() : config.cluster().address());
        // A clustered node joins first: its reload gate checks the cluster's FSM instances.
        Vertx vertx = cluster == null ? metrics.vertx(options, tracing.vertxTracer())
                : metrics.clusteredVertx(cluster.configure(options), cluster.manager(), tracing.vertxTracer());
        BlockedThreads blocked = new BlockedThreads(vertx);
        DecisionLog log = null;
        LocalState local = null;
        LocalAnswers answers = null;
        ClusterState clusterState = null;
        Guard guard = null;
        DataDir data = null;
        io.signalman.people.People people = null;
        Trials trials = null;
        io.signalman.control.ControlStore control = null;
        io.signalman.workbench.RulesMirror mirror = null;
        io.signalman.notify.Webhook webhook = null;
        try {
            // --rules-git: a folder in no work tree is refused before anything is opened or compiled.
            io.signalman.rulesgit.RulesRepository rulesGit = workbench.rulesGit()
                    ? io.signalman.rulesgit.RulesRepository.locate(config.rules()) : null;
            // First of all: one owner per data directory, and a directory that is whole.
            data = DataDir.open(config.data(), config.acceptDataLoss());
            Storage storage = new Storage(disk);
            Writing writing = Writing.of(data, disk, storage);
            log = new DecisionLog(config.decisionsDir(), config.fsync(), config.logQueue(), disk, storage, data.registry());
            io.signalman.people.OidcTokens oidc = config.people().oidc() == null ? null
                    : io.signalman.people.OidcTokens.create(vertx, config.people().oidc());
            // The control plane: this data directory alone, or the cluster's (users, audit, drafts, activations).
            control = cluster == null ? new io.signalman.control.LocalControl(config.data(), writing) : cluster.control();
            people = io.signalman.people.People.open(control, config.data(), writing, config.people(), config.adminToken(),
                    workbench.adminTokenName(), workbench.readToken(), oidc, config.acceptDataLoss());
            if (config.people().notifyWebhook() != null) {
                webhook = new io.signalman.notify.Webhook(config.people().notifyWebhook(),
                        cluster == null ? null : cluster.config().address()).follow(people.audit());
                LOG.info("review hand-offs and activations are told to {} (--notify-webhook)", config.people().notifyWebhook());
            }
            if (config.people().auditKey() == null) {
                LOG.warn("the audit log is not keyed (no --audit-key-file): it guards against accidents only; anyone who "
                        + "can write {} can rewrite it and re-seal its chain unnoticed (to key it: stop, run signalman audit "
                        + "key --data {} --audit-key-file FILE, and serve with that key)", config.data(), config.data());
            }
            // Opened before the rules load: the reload gate checks the recovered FSM instances.
            AtomicReference<Engine> loaded = new AtomicReference<>();
            List<StoreSpec<?>> specs = StateSpecs.all(() -> loaded.get().bundle());
            StateStores stores;
            if (cluster != null) {
                clusterState = cluster.state(config.state(), specs);
                stores = clusterState.stores();
            } else {
                local = config.state().durable()
                        ? LocalState.open(config.state(), specs, config.stateDir(), log, config.fsync(), writing, data.upgraded())
                        : LocalState.inMemory(config.state(), specs);
                stores = local.stores();
                if (config.state().durable()) {
                    answers = LocalAnswers.open(config.stateDir().resolve("answers"), config.fsync(), config.state().clock(),
                            writing, new AnswerNeeds(local, data.manifest()));
                    LocalAnswers held = answers;
                    DecisionLog written = log;
                    local.forceEachTick(() -> held.forceAfter(() -> written.sync(written.appended())));
                }
            }
            LocalState located = local;
            Gate gate = new ReplayGate(config.fixtures()).and(new ScenarioGate())
                    .and(located == null ? new OrphanGate(stores.named(FsmService.STORE))
                            : new OrphanGate(stores.named(FsmService.STORE), ids -> located.locate(FsmService.STORE, ids)));
            Engine engine = new Engine(config.rules(), new io.signalman.engine.BundleCompiler(packs,
                    java.time.Clock.systemUTC(), io.signalman.engine.UnitPolicy.DEFAULT, compiledCache(config)), gate);
            loaded.set(engine);
            metrics.count(engine);
            if (control.shared()) {
                // In a cluster the folder mirrors the cluster's live revision: written before the first load.
                mirror = new io.signalman.workbench.RulesMirror(control, config.rules());
                mirror.sync();
            }
            RuleBundle bundle = engine.load();
            if (mirror != null) {
                mirror.follow(engine);
            }
            LOG.info("loaded rules {} ({} packs) from {}", bundle.revision(), bundle.packs().size(), config.rules());
            bundle.warnings().forEach(w -> LOG.warn("rules: {}", w));
            Decisions decisions = new Decisions(engine, log, stores, metrics::decided);
            metrics.jvm();
            metrics.storage(storage, log);
            metrics.auth(people.authenticator());
            guard = new Guard(config.limits(), cluster == null ? answers : cluster.answers(), config.workers());
            Warmup.run(decisions, metrics, config, guard);
            // After the warm-up: its decisions are no one's request, and make no spans.
            decisions.tracing(tracing);
            Workers deciding = guard.decisionWorkers();
            metrics.gauge("signalman.stuck.workers", "decision threads held by rules past their deadline (abandoned ones "
                    + "included); replaced while the bound allows, /health is 503 once none is left", deciding::stuck);
            metrics.gauge("signalman.abandoned.workers", "decision threads given up on, still running a rule that did not "
                    + "stop; a new thread took each one's place", deciding::abandoned);
            metrics.gauge("signalman.abandoned.workers.max", "the most decision threads that may be abandoned at once",
                    deciding::maxAbandoned);
            metrics.functionCounter("signalman.evaluations.too.costly", "live decisions stopped over their budget "
                    + "(--max-decision-mb, --max-decision-cpu-ms), answered 503 evaluation_too_costly", decisions.breaches()::total);
            metrics.functionCounter("signalman.quarantines", "revisions the server went back from by itself after their "
                    + "decisions kept breaking the budget (--quarantine-after)", decisions.breaches()::quarantined);
            metrics.gauge("signalman.admission.limit", "requests admitted at once now (adaptive, by measured latency)",
                    guard::admissionLimit);
            metrics.gauge("signalman.in.flight", "requests admitted and not yet answered", guard::inFlight);
            metrics.gauge("signalman.idempotency.keys", "idempotency keys remembered on this node", guard.idempotency()::size);
            if (local != null) {
                metrics.state(local::counts);
                local.start();
            }
            if (clusterState != null) {
                metrics.state(clusterState::counts);
                clusterState.start();
            }
            ClusterView view = cluster == null ? ClusterView.standalone() : ClusterView.of(cluster);
            io.signalman.workbench.Workbench bench = new io.signalman.workbench.Workbench(
                    decisions, config.fixtures(), config.data(), config.decisionsDir(), workbench, control, people);
            if (rulesGit != null) {
                bench.withRulesGit(rulesGit);
                String gitCommits = "activations made on this node committed into the rules folder's Git work tree "
                        + "(--rules-git), by outcome: committed, or failed (the activation stands)";
                metrics.functionCounter("signalman.rules.git.commits", gitCommits, rulesGit::commits, "outcome", "committed");
                metrics.functionCounter("signalman.rules.git.commits", gitCommits, rulesGit::failures, "outcome", "failed");
                LOG.info("rules: each activation made here is committed into the Git work tree {} (--rules-git)", rulesGit);
            }
            if (cluster != null) {
                Vertx v = vertx;
                bench.withMembers(revision -> view.awaitRevision(v, revision, ACTIVATION_WAIT_MILLIS));
                bench.withPeers(new io.signalman.cluster.Peers(cluster, vertx), config.decisionsDir());
            }
            // After the warm-up (its decisions are no trial's), before the first request.
            TrialOptions trialOptions = TrialOptions.defaults(config.limits().deadlineMs());
            trials = cluster == null
                    ? Trials.local(engine, config.data(), bench.trialDrafts(), bench.trialPromoter(), trialOptions)
                    : Trials.clustered(engine, config.data(), cluster, bench.trialDrafts(), bench.trialPromoter(), trialOptions);
            decisions.arms(trials.arms());
            io.signalman.people.People audited = people;
            // A trial that stops by itself (a limit tripped, the live rules changed) is an act of the server's: in the
            // audit log, so the webhook tells the team and the operator's inbox shows it.
            trials.onStopped((id, reason) -> audited.record(TRIALS, "trial_stopped", io.signalman.json.Json.object().put("trial", id)
                    .put("note", reason)));
            trials.onChangedByServer((id, what) -> audited.record(TRIALS, "trial_changed", io.signalman.json.Json.object()
                    .put("trial", id).put("note", what)));
            // A rejection of the content a canary runs voids the approvals it runs on: back to shadow (every member's
            // audit log tells it, so each node's canary stops answering as soon as it reads the rejection).
            Trials withdrawing = trials;
            people.audit().onEntry(e -> {
                if (io.signalman.people.Approvals.REJECTED.equals(e.path("action").asText()) && audited.audit().counts(e)) {
                    withdrawing.approvalWithdrawn(e.path("draft").asText(), e.path("content_hash").asText(), e.path("user").asText()
                            + " rejected it: \"" + e.path("note").asText() + "\"");
                }
            });
            Trials running = trials;
            bench.withRunningTrials(() -> {
                com.fasterxml.jackson.databind.node.ArrayNode out = io.signalman.json.Json.array();
                running.list().forEach(t -> {
                    if ("running".equals(t.path("state").asText())) {
                        out.add(t);
                    }
                });
                return out;
            });
            TrialMetrics.register(metrics, trials);
            HttpApi http = new HttpApi(decisions, metrics, config, guard, view).withPeople(people).withWorkbench(bench)
                    .withTrials(trials);
            if (mirror != null) {
                http.withClusterRules(mirror::unavailable, mirror::live);
            }
            vertx.deployVerticle(http).await();
            metrics.gauge("signalman.connections.open", "connections open on the public listener", http::openConnections);
            vertx.deployVerticle(new EventBusApi(decisions, config, guard)).await();
            prestartReloads(vertx);
            view.serve(vertx, http::status);
            LOG.info("serving on http://{}:{} ({}); decision log {}", config.host(), http.port(), config, log.currentFile());
            if (config.benchEndpoints()) {
                // Once, for the listener that serves: the warm-up's throwaway listener routes it too.
                LOG.warn("bench endpoints on (--bench-endpoints): POST /bench/echo answers anyone; not for production");
            }
            if (config.adminListener() != null) {
                LOG.info("admin endpoints on http://{}:{} only", config.adminListener().host(), http.adminPort());
            }
            if (cluster != null) {
                metrics.clusterMembers(() -> cluster.nodes().size());
                LOG.info("cluster member {} (node {}), {} member(s)", cluster.config().address(), cluster.nodeId(),
                        cluster.nodes().size());
            }
            BundleWatcher watcher = new BundleWatcher(List.of(config.rules(), config.fixtures()), WATCH_MILLIS,
                    mirror != null ? mirror::handEdit : BundleWatcher.reloading(engine));
            engine.beforeEachLoad(watcher::reading);
            return new Server(vertx, engine, log, http, watcher, guard, blocked, local, answers, metrics, clusterState, data, storage,
                    trials, people, control, mirror, webhook, tracing);
        } catch (Exception e) {
            // Exception, not only the declared ones: Vert.x rethrows a failed listen (BindException) as it is.
            metrics.close();
            vertx.close().await();
            tracing.close();
            if (trials != null) {
                trials.close();
            }
            if (guard != null) {
                guard.close();
            }
            if (log != null) {
                log.close();
            }
            if (local != null) {
                local.close();
            }
            if (answers != null) {
                answers.close();
            }
            if (clusterState != null) {
                clusterState.close();
            }
            if (webhook != null) {
                webhook.close();
            }
            if (people != null) {
                people.close();
            }
            closeControl(control, mirror);
            if (data != null) {
                data.close();
            }
            throw e;
        }
    }

    /**
     * Starts the reload thread now, from this thread (the guard's threads start with it). A Vert.x
     * pool creates its thread on first use, on the thread that submits, which is an event loop;
     * under a loaded machine one {@code Thread.start} there was measured blocking it for 137 ms.
     * Called once the verticles hold the pool, so closing this handle leaves it open.
     */
    private static void prestartReloads(Vertx vertx) {
        io.vertx.core.WorkerExecutor pool = vertx.createSharedWorkerExecutor(HttpApi.RELOAD_POOL, 1);
        pool.executeBlocking(() -> true, false).await();
        pool.close();
    }

    public int port() {
        return http.port();
    }

    /** The admin listener's port, or -1 when the admin endpoints are on the public port. */
    public int adminPort() {
        return http.adminPort();
    }

    public Vertx vertx() {
        return vertx;
    }

    public HttpApi http() {
        return http;
    }

    /** Requests admitted and not yet finished (HTTP and event bus); 0 when idle. */
    public int inFlight() {
        return guard.inFlight();
    }

    /** Blocked-thread warnings since start (there should be none: nothing may block an event loop). */
    public long blockedThreadWarnings() {
        return blocked.warnings();
    }

    /** Blocked-thread warnings with Signalman's own code on the blocked stack. */
    public long blockedInSignalmanCode() {
        return blocked.inOurCode();
    }

    public Engine engine() {
        return engine;
    }

    /** A single node's state (null in a cluster). */
    public LocalState state() {
        return local;
    }

    /** Whether the data directory takes writes, its outages and refusals. */
    public Storage storage() {
        return storage;
    }

    /** The live trials this server runs. */
    public Trials trials() {
        return trials;
    }

    public DecisionLog decisionLog() {
        return log;
    }

    /** The users, the audit log and the approvals of this server's data directory. */
    /** Spans of requests and decisions ({@code --otel-endpoint}), or off. */
    public io.signalman.tracing.Tracing tracing() {
        return tracing;
    }

    public io.signalman.people.People people() {
        return people;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        LOG.info("shutting down: finishing in-flight requests");
        watcher.close();
        if (clusterState != null) {
            clusterState.close();
        }
        try {
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("vert.x did not close cleanly: {}", e.toString());
        }
        guard.close();
        // After the requests: a trial's last comparisons are counted and its figures kept.
        trials.close();
        log.close();
        metrics.close();
        // After the requests: their last spans are sent (at most 10 s).
        tracing.close();
        // After the log: the last snapshot covers every decision the log holds.
        if (local != null) {
            local.close();
        }
        if (answers != null) {
            answers.close();
        }
        if (webhook != null) {
            webhook.close();
        }
        people.close();
        closeControl(control, mirror);
        LOG.info("stopped; {} decisions written to {}", log.written(), log.directory());
        data.close();
    }

    private static void closeControl(io.signalman.control.ControlStore control, io.signalman.workbench.RulesMirror mirror) {
        if (mirror != null) {
            mirror.close();
        }
        if (control instanceof io.signalman.control.LocalControl l) {
            l.close();
        } else if (control instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("closing the control plane: {}", e.toString());
            }
        }
    }

    /**
     * Where compiled rules are kept between starts: {@code DATA/compiled/}, or the directory the
     * system property {@code signalman.compiled.cache} names (one cache for several data
     * directories, as the test suite's servers share one). A start with unchanged rules loads them
     * from there instead of compiling (a cold compile is most of a start).
     */
    static java.nio.file.Path compiledCache(ServerConfig config) {
        String shared = System.getProperty("signalman.compiled.cache");
        return shared != null && !shared.isBlank() ? java.nio.file.Path.of(shared) : config.data().resolve("compiled");
    }
}
