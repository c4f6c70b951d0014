package io.signalman.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.engine.Decision;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleInfo;
import io.signalman.state.StateStores;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.util.EnumSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One server's metrics, in its own Prometheus registry so that
 * servers sharing a JVM (the tests) never share series.
 *
 * <ul>
 *   <li>Vert.x's metrics module publishes HTTP request counts and latency histograms labelled by
 *       route <em>template</em> ({@code /v1/fsm/instances/:id/actions}), method and status; never by
 *       raw path, so label cardinality is bounded by the routes, not by the ids clients send.</li>
 *   <li>{@code signalman_rule_fired_total{pack, rule}}: incremented when a decision is committed
 *       (logged), once per rule in its {@code rules_fired}. Keyed by name, not by revision, so a
 *       rule's series continues across reloads; a renamed rule starts a new series. The counters
 *       in {@code CompiledPack} (shown by {@code GET /v1/rules}) are per bundle and restart at a
 *       reload; these do not. A stateful decision that lost its compare-and-set and was decided
 *       again counts once, as it is logged once.</li>
 *   <li>{@code signalman_decisions_total{pack}}, {@code signalman_reloads_total{outcome}}
 *       (every {@link Engine#load}, the first included: loaded or refused) and
 *       {@code signalman_rejections_total{status, error}} (every error response, by its code).</li>
 * </ul>
 */
public final class Metrics {

    /** Body-size buckets, in bytes: small, typical, large, near and at the 64 KiB body limit. */
    static final double[] SIZE_BUCKETS = {256, 1024, 4096, 16384, 65536};

    private final PrometheusMeterRegistry registry = registry();
    /** Counts what the gauges of a scrape read (the state entries), once per scrape. */
    private volatile Runnable beforeScrape = () -> { };
    private final ConcurrentMap<String, ConcurrentMap<String, Counter>> fired = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> decisions = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> rejections = new ConcurrentHashMap<>();
    private JvmGcMetrics gc;

    /**
     * NOTE(cardinality): Vert.x publishes request and response sizes as histograms, and Micrometer's
     * default buckets for a size run from 1 to Long.MAX_VALUE: about 270 series per route and
     * status. A handful of fixed buckets answers what sizes are for (is anything near the limit?).
     * Vert.x's own "publish quantiles" would turn the full histogram on for every distribution,
     * so it stays off and this filter, registered before any meter, decides: the latency of
     * Vert.x's timers as a histogram, sizes in these buckets.
     */
    private static PrometheusMeterRegistry registry() {
        PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        r.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().startsWith("vertx.")) {
                    return config;
                }
                if (id.getType() == Meter.Type.DISTRIBUTION_SUMMARY && id.getName().endsWith(".bytes")) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(false)
                            .serviceLevelObjectives(SIZE_BUCKETS).build().merge(config);
                }
                return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
            }
        });
        return r;
    }

    public Metrics(Engine engine) {
        this();
        count(engine);
    }

    /** Metrics whose reload counters are registered later, by {@link #count(Engine)}. */
    public Metrics() {
    }

    /** Registers the engine's load and refusal counters (once per engine). */
    public void count(Engine engine) {
        FunctionCounter.builder("signalman.reloads", engine, Engine::loads).tag("outcome", "loaded")
                .description("rule bundles compiled, gated and made active (the first load included)").register(registry);
        FunctionCounter.builder("signalman.reloads", engine, Engine::refusals).tag("outcome", "refused")
                .description("rule bundles refused (compile, lint or gate); the old bundle kept serving").register(registry);
    }

    /** {@code signalman_cluster_members}: the members this node sees; registered by clustered servers only. */
    public void clusterMembers(java.util.function.Supplier<Integer> members) {
        io.micrometer.core.instrument.Gauge.builder("signalman.cluster.members", members, m -> m.get())
                .description("cluster members this node sees, itself included").strongReference(true).register(registry);
    }

    /**
     * The JVM's heap and non-heap pools, garbage collections, threads, classes and CPU (issue
     * 17.3): memory pressure shows in {@code jvm_memory_used_bytes} and {@code jvm_gc_pause_seconds}
     * long before an {@code OutOfMemoryError} (on which the launcher makes the process exit).
     */
    public void jvm() {
        new JvmMemoryMetrics().bindTo(registry);
        gc = new JvmGcMetrics();
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
    }

    /**
     * The data directory's writes (issues 17.2, 26): {@code signalman_storage_available} (0 while
     * the disk refuses writes and every change gets 503 {@code storage_unavailable}), its outages,
     * the changes refused meanwhile, and the decision records written and refused.
     */
    public void storage(io.signalman.datadir.Storage storage, DecisionLog log) {
        Gauge.builder("signalman.storage.available", storage, s -> s.available() ? 1 : 0)
                .description("1 while the data directory takes writes, 0 while it cannot (changes are refused)").register(registry);
        FunctionCounter.builder("signalman.storage.outages", storage, io.signalman.datadir.Storage::outages)
                .description("times the disk started refusing the data directory's writes").register(registry);
        FunctionCounter.builder("signalman.storage.refused", storage, io.signalman.datadir.Storage::refused)
                .description("requests refused (503 storage_unavailable) because the disk refused writes").register(registry);
        FunctionCounter.builder("signalman.decision.log.records", log, DecisionLog::written)
                .description("decision records written to the log").register(registry);
        FunctionCounter.builder("signalman.decision.log.refused", log, DecisionLog::refused)
                .description("decision records the disk refused (their requests were answered 503)").register(registry);
    }

    /**
     * Failed authentications ({@code signalman_auth_failures_total{reason}}: a token that is not
     * valid, by why, which the client is never told) and requests refused because their address
     * failed too often ({@code signalman_auth_throttled_total}).
     */
    public void auth(io.signalman.people.Authenticator a) {
        for (String reason : io.signalman.people.Authenticator.REASONS) {
            FunctionCounter.builder("signalman.auth.failures", a, x -> x.failures(reason)).tag("reason", reason)
                    .description("failed authentications, by reason").register(registry);
        }
        FunctionCounter.builder("signalman.auth.throttled", a, io.signalman.people.Authenticator::throttled)
                .description("requests refused (429) because their address failed to authenticate too often").register(registry);
    }

    /** A gauge read from {@code value} at every scrape. */
    public void gauge(String name, String description, java.util.function.Supplier<Number> value) {
        Gauge.builder(name, value, v -> v.get().doubleValue()).description(description).strongReference(true).register(registry);
    }

    private final java.util.List<Object> held = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A gauge with tags, read from {@code value} at every scrape. */
    public void gauge(String name, String description, java.util.function.Supplier<Number> value, String... tags) {
        Gauge.builder(name, value, v -> v.get().doubleValue()).tags(tags).description(description).strongReference(true)
                .register(registry);
    }

    /** A counter read from {@code value} (which only grows) at every scrape. */
    public void functionCounter(String name, String description, java.util.function.Supplier<Number> value, String... tags) {
        // NOTE: a function counter holds its source weakly; this registry holds it for the process's life.
        held.add(value);
        FunctionCounter.builder(name, value, v -> v.get().doubleValue()).tags(tags).description(description).register(registry);
    }

    /** A counter registered once per name and tags; increment it from any thread. */
    public Counter counter(String name, String description, String... tags) {
        return Counter.builder(name).tags(tags).description(description).register(registry);
    }

    /** Stops what the JVM binders started (the GC listener). */
    public void close() {
        if (gc != null) {
            gc.close();
        }
    }

    /**
     * State entries per store: {@code signalman_state_entries{store, status}}
     * with status live, finished (kept for --state-retention) and expired (tombstones kept, so a
     * GET answers 410), and {@code signalman_state_expired} removed by retention since start.
     * Counted when scraped (a pass over the stores' maps).
     */
    public void state(java.util.function.Supplier<java.util.Map<String, long[]>> source) {
        // One pass per scrape, not one per gauge: the eight gauges read what scrape() counted.
        java.util.concurrent.atomic.AtomicReference<java.util.Map<String, long[]>> last =
                new java.util.concurrent.atomic.AtomicReference<>(source.get());
        beforeScrape = () -> last.set(source.get());
        java.util.function.Supplier<java.util.Map<String, long[]>> counts = last::get;
        java.util.Map<String, long[]> now = counts.get();
        String[] statuses = {"live", "finished", "expired"};
        for (String store : now.keySet()) {
            for (int i = 0; i < statuses.length; i++) {
                int at = i;
                io.micrometer.core.instrument.Gauge.builder("signalman.state.entries", counts, c -> c.get().get(store)[at])
                        .tag("store", store).tag("status", statuses[i])
                        .description("state entries held, by store and status").strongReference(true).register(registry);
            }
            io.micrometer.core.instrument.Gauge.builder("signalman.state.expired", counts, c -> c.get().get(store)[3])
                    .tag("store", store).description("entries removed by retention since start").strongReference(true)
                    .register(registry);
        }
    }

    /** Vert.x built with this registry behind its metrics SPI. */
    public Vertx vertx(VertxOptions options) {
        return vertx(options, null);
    }

    /** The same, with Vert.x's tracing over {@code tracer} (a span per request and bus message), unless null. */
    public Vertx vertx(VertxOptions options, io.vertx.core.spi.VertxTracerFactory tracer) {
        return builder(options, tracer).build();
    }

    /** A clustered Vert.x with the same metrics; blocks until this node has joined. */
    public Vertx clusteredVertx(VertxOptions options, io.vertx.core.spi.cluster.ClusterManager manager,
                                io.vertx.core.spi.VertxTracerFactory tracer) {
        return builder(options, tracer).withClusterManager(manager).buildClustered().await();
    }

    /**
     * The labels are chosen for bounded cardinality: route template, method and status for HTTP;
     * never the raw path or the peer.
     */
    private io.vertx.core.VertxBuilder builder(VertxOptions options, io.vertx.core.spi.VertxTracerFactory tracer) {
        options.setMetricsOptions(new MicrometerMetricsOptions()
                .setEnabled(true)
                .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true).setPublishQuantiles(false))
                .setLabels(EnumSet.of(Label.HTTP_ROUTE, Label.HTTP_METHOD, Label.HTTP_CODE, Label.EB_ADDRESS,
                        Label.EB_SIDE, Label.EB_FAILURE, Label.POOL_TYPE, Label.POOL_NAME)));
        io.vertx.core.VertxBuilder b = Vertx.builder().with(options).withMetrics(new MicrometerMetricsFactory(registry));
        return tracer == null ? b : b.withTracer(tracer);
    }

    /** The Prometheus text exposition (format 0.0.4). Walks every meter: call it off the event loop. */
    public String scrape() {
        beforeScrape.run();
        return registry.scrape();
    }

    /** A committed decision: its pack, and each rule that fired for it. Runs on a worker thread. */
    public void decided(Decision<?> d) {
        decisions.computeIfAbsent(d.pack(), p -> Counter.builder("signalman.decisions").tag("pack", p)
                .description("decisions made and logged").register(registry)).increment();
        ConcurrentMap<String, Counter> byRule = fired.computeIfAbsent(d.pack(), p -> new ConcurrentHashMap<>());
        for (RuleInfo r : d.evaluation().fired()) {
            byRule.computeIfAbsent(r.name(), name -> Counter.builder("signalman.rule.fired").tag("pack", r.pack())
                    .tag("rule", name).description("times a rule fired in a logged decision, across reloads")
                    .register(registry)).increment();
        }
    }

    /** An error response: its status and its code ({@code invalid_input}, {@code guard_rejected}, ...). */
    void rejected(int status, String code) {
        String key = status + " " + code;
        rejections.computeIfAbsent(key, k -> Counter.builder("signalman.rejections").tag("status", Integer.toString(status))
                .tag("error", code).description("error responses, by status and error code").register(registry)).increment();
    }
}
