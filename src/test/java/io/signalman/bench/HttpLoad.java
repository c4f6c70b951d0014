package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.bench.LoadTargets.Target;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * HTTP load on 127.0.0.1: for the trivial endpoint, the JSON echo (the server runs with the bench
 * flag) and each decision endpoint (the FSM and handoff ones on instances and conversations
 * created first), with the decision log on,
 * (1) saturation: a fixed number of requests kept in flight for a fixed time, and (2) half of
 * that rate, open loop, with latency measured from each request's intended send time so a stall
 * counts against every request it delays. Bounded in count and time. Each phase runs in three
 * rounds over every endpoint in turn and each figure is the median of its rounds: on this shared
 * 2-core machine one endpoint's throughput moved by a third between two runs of the same load.
 *
 * <p>Both phases are warmed before anything is measured, and the measurement waits for the JIT to
 * go quiet: on 2 cores kept busy by the load, the compiler threads get little CPU, and an endpoint
 * measured while its code was still being compiled showed a third of its later throughput and
 * p99s of hundreds of ms (the first second of an open-loop phase never run before).
 */
public final class HttpLoad {

    static final int IN_FLIGHT = 64;
    static final int WARMUP_SECONDS = 3;
    /** Rounds over every target before any is measured: one round leaves the JIT unfinished. */
    static final int WARMUP_ROUNDS = 3;
    static final int SECONDS = 5;
    /** Measured rounds over every endpoint; each figure is the median of its rounds. */
    static final int ROUNDS = 3;
    /** Each open-loop phase runs this long at its rate before its latencies are recorded. */
    static final double LEAD_IN_SECONDS = 1;
    /** The JIT counts as quiet when it compiled for less than this in the last second. */
    static final long JIT_QUIET_MS = 20;
    static final int JIT_WAIT_LIMIT_SECONDS = 30;
    /** The JSON echo ({@code --bench-endpoints}): receiving, parsing and answering a body, with no decision. */
    static final String ECHO_TARGET = "POST /bench/echo";
    /** The endpoint offered twice its saturation rate. */
    static final String OVERLOAD_TARGET = "POST /v1/broker/route";

    private HttpLoad() {
    }

    public static void main(String[] args) throws Exception {
        // The bench flag serves POST /bench/echo, the floor every decision endpoint is reported against.
        measure("http.json", config -> config.withBenchEndpoints(true), (server, vertx, client, results) -> {
            List<Target> targets = List.of(
                    new Target("trivial GET /health", HttpMethod.GET, "/health", List.of(Buffer.buffer())),
                    // The broker's bodies: the echo receives, parses and writes back what the broker route decides on.
                    new Target(ECHO_TARGET, HttpMethod.POST, "/bench/echo", LoadTargets.bodies("broker")),
                    new Target("POST /v1/broker/route", HttpMethod.POST, "/v1/broker/route", LoadTargets.bodies("broker")),
                    new Target("POST /v1/signals/route", HttpMethod.POST, "/v1/signals/route", LoadTargets.bodies("signals")),
                    new Target("POST /v1/dispatch", HttpMethod.POST, "/v1/dispatch", LoadTargets.bodies("dispatch")),
                    LoadTargets.fsmActions(), LoadTargets.handoffTurns());
            // -Dbench.only=echo,broker: only the targets whose names contain one of the words (a quick look at a few).
            String only = System.getProperty("bench.only");
            if (only != null) {
                List<String> words = List.of(only.split(","));
                targets = targets.stream().filter(t -> words.stream().anyMatch(t.name()::contains)).toList();
            }
            LoadTargets.createStatefulKeys(client, server.port());
            // Warm every path of both phases first, so no endpoint is measured while the JIT is still compiling it.
            for (int round = 0; round < WARMUP_ROUNDS; round++) {
                for (Target t : targets) {
                    double warmRps = saturate(client, server.port(), t, WARMUP_SECONDS).length / (double) WARMUP_SECONDS;
                    openLoop(vertx, client, server.port(), t, warmRps / 2, 1);
                }
            }
            results.put("jit_wait_s", awaitQuietJit());
            // Rounds over every endpoint in turn, so that a slow spell of the machine falls on all of them alike.
            double[][] rps = new double[targets.size()][ROUNDS];
            ObjectNode[][] saturated = new ObjectNode[targets.size()][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int k = 0; k < targets.size(); k++) {
                    long[] sat = saturate(client, server.port(), targets.get(k), SECONDS);
                    rps[k][round] = sat.length / (double) SECONDS;
                    saturated[k][round] = percentiles(Json.object(), sat);
                    System.out.printf("http: round %d %-28s %,10.0f req/s saturated%n", round + 1, targets.get(k).name(),
                            rps[k][round]);
                }
            }
            ObjectNode[][] half = new ObjectNode[targets.size()][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int k = 0; k < targets.size(); k++) {
                    Target t = targets.get(k);
                    half[k][round] = percentiles(Json.object(), openLoop(vertx, client, server.port(), t, median(rps[k]) / 2, SECONDS));
                    System.out.printf("http: round %d %-28s at half rate p99 %.2f ms%n", round + 1, t.name(),
                            half[k][round].get("p99").asDouble());
                }
            }
            // the broker route offered twice its saturation rate; the p99 of what was accepted.
            ObjectNode overload = null;
            for (int k = 0; k < targets.size(); k++) {
                if (targets.get(k).name().equals(OVERLOAD_TARGET)) {
                    overload = OverloadPhase.run(vertx, server.port(), targets.get(k), 2 * median(rps[k]), SECONDS);
                    System.out.printf("http: %-28s at twice saturation: %d accepted (p99 %.2f ms from the intended send,"
                            + " %.2f ms from the connection), %d shed; sends late by p50 %.2f ms%n", OVERLOAD_TARGET,
                            overload.get("accepted").asInt(), overload.at("/accepted_latency_ms/p99").asDouble(),
                            overload.at("/accepted_latency_on_connection_ms/p99").asDouble(), overload.get("shed").asInt(),
                            overload.at("/send_lag_ms/p50").asDouble());
                }
            }
            for (int k = 0; k < targets.size(); k++) {
                ObjectNode r = results.putObject(targets.get(k).name());
                if (overload != null && targets.get(k).name().equals(OVERLOAD_TARGET)) {
                    r.set("twice_rate", overload);
                }
                r.put("saturated_rps", median(rps[k]));
                r.set("saturated_latency_ms", medianOf(saturated[k]));
                r.set("half_rate_latency_ms", medianOf(half[k]));
                r.put("half_rate_rps", median(rps[k]) / 2);
                ArrayNode rounds = r.putArray("rounds");
                for (int round = 0; round < ROUNDS; round++) {
                    rounds.addObject().put("saturated_rps", rps[k][round]).<ObjectNode>set("half_rate_latency_ms", half[k][round]);
                }
                System.out.printf("http: %-28s %,10.0f req/s saturated; at half rate p99 %.2f ms (medians of %d rounds)%n",
                        targets.get(k).name(), median(rps[k]), r.get("half_rate_latency_ms").get("p99").asDouble(), ROUNDS);
            }
        });
    }

    /**
     * What a load benchmark measures of its server, loading it from {@code vertx} through {@code client}
     * (up to {@link #IN_FLIGHT} connections); it puts its figures in {@code results}.
     */
    @FunctionalInterface
    interface Measurement {
        void run(Server server, Vertx vertx, HttpClientAgent client, ObjectNode results) throws Exception;
    }

    /**
     * Starts a server with the decision log on in a new temporary folder ({@code config} adds what the
     * benchmark needs), runs {@code measurement} against it, and writes its results to target/bench/{@code file}.
     */
    static void measure(String file, UnaryOperator<ServerConfig> config, Measurement measurement) throws Exception {
        Path data = Files.createTempDirectory("signalman-" + file.replace(".json", ""));
        ObjectNode results = Json.object();
        try (Server server = Server.start(config.apply(ServerConfig.defaults().withPort(0).withData(data)))) {
            Vertx vertx = Vertx.vertx();
            HttpClientAgent client = client(vertx, IN_FLIGHT);
            measurement.run(server, vertx, client, results);
            client.close().await();
            vertx.close().await();
        }
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve(file), Json.write(results) + "\n");
    }

    /** A keep-alive HTTP/1.1 client of up to {@code connections} connections. */
    static HttpClientAgent client(Vertx vertx, int connections) {
        return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(connections));
    }

    /** One request of an open-loop schedule: the {@code i}th, due at {@code intended} (System.nanoTime). */
    @FunctionalInterface
    interface Shot {
        void send(int i, long intended);
    }

    /**
     * Sends requests 0 to {@code total - 1} at {@code rate} a second from now, whatever the answers do
     * (each at its turn, from a 1 ms timer); returns the timer, to cancel once every answer is in.
     */
    static long schedule(Vertx vertx, double rate, int total, Shot shot) {
        long start = System.nanoTime();
        AtomicInteger sent = new AtomicInteger();
        return vertx.setPeriodic(1, id -> {
            long due = (long) ((System.nanoTime() - start) / 1e9 * rate);
            while (sent.get() < Math.min(due, total)) {
                int i = sent.getAndIncrement();
                shot.send(i, start + (long) (i / rate * 1e9));
            }
        });
    }


    /** Keeps IN_FLIGHT requests outstanding for the given time; returns each latency in ns. */
    static long[] saturate(HttpClientAgent client, int port, Target t, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long[] lat = new long[4_000_000];
        AtomicInteger n = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(IN_FLIGHT);
        for (int c = 0; c < IN_FLIGHT; c++) {
            loop(client, port, t, end, lat, n, errors, done);
        }
        done.await();
        if (errors.get() > 0) {
            throw new IllegalStateException(t.name() + ": " + errors.get() + " requests failed");
        }
        return Arrays.copyOf(lat, Math.min(n.get(), lat.length));
    }

    private static void loop(HttpClientAgent client, int port, Target t, long end, long[] lat, AtomicInteger n,
                             AtomicInteger errors, CountDownLatch done) {
        if (System.nanoTime() >= end) {
            done.countDown();
            return;
        }
        long start = System.nanoTime();
        LoadTargets.send(client, port, t).onComplete(ar -> {
            if (ar.failed() || ar.result() >= 300) {
                if (errors.incrementAndGet() == 1) {
                    System.err.println(t.name() + ": " + (ar.failed() ? ar.cause() : "status " + ar.result()));
                }
            }
            int k = n.getAndIncrement();
            if (k < lat.length) {
                lat[k] = System.nanoTime() - start;
            }
            loop(client, port, t, end, lat, n, errors, done);
        });
    }

    /** Sends at a fixed rate whatever the responses do; latency counts from the intended send time. */
    static long[] openLoop(Vertx vertx, HttpClientAgent client, int port, Target t, double rate, int seconds)
            throws InterruptedException {
        int leadIn = (int) (rate * LEAD_IN_SECONDS);
        int total = leadIn + (int) (rate * seconds);
        long[] lat = new long[total];
        CountDownLatch done = new CountDownLatch(total);
        AtomicInteger errors = new AtomicInteger();
        long timer = schedule(vertx, rate, total, (i, intended) -> LoadTargets.send(client, port, t).onComplete(ar -> {
            lat[i] = System.nanoTime() - intended;
            if ((ar.failed() || ar.result() >= 300) && errors.incrementAndGet() == 1) {
                System.err.println(t.name() + ": " + (ar.failed() ? ar.cause() : "status " + ar.result()));
            }
            done.countDown();
        }));
        boolean finished = done.await(seconds + (long) LEAD_IN_SECONDS + 30L, TimeUnit.SECONDS);
        vertx.cancelTimer(timer);
        if (!finished) {
            throw new IllegalStateException(t.name() + ": " + done.getCount() + " open-loop requests unanswered after 30 s");
        }
        if (errors.get() > 0) {
            throw new IllegalStateException(t.name() + ": " + errors.get() + " open-loop requests failed");
        }
        return Arrays.copyOfRange(lat, leadIn, total);
    }

    /** Waits (bounded) until the JIT compiled for less than {@link #JIT_QUIET_MS} in a second; returns the seconds waited. */
    static double awaitQuietJit() throws InterruptedException {
        var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long begin = System.nanoTime();
        long last = jit.getTotalCompilationTime();
        for (int s = 0; s < JIT_WAIT_LIMIT_SECONDS; s++) {
            Thread.sleep(1000);
            long now = jit.getTotalCompilationTime();
            if (now - last < JIT_QUIET_MS) {
                break;
            }
            last = now;
        }
        double waited = (System.nanoTime() - begin) / 1e9;
        System.out.printf("http: warmed up; waited %.0f s for the JIT to go quiet%n", waited);
        return waited;
    }

    static ObjectNode percentiles(ObjectNode out, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        for (double p : new double[] {50, 99, 99.9}) {
            long v = s.length == 0 ? 0 : s[Math.min(s.length - 1, (int) Math.ceil(p / 100 * s.length) - 1)];
            out.put(p == 50 ? "p50" : p == 99 ? "p99" : "p99.9", v / 1e6);
        }
        out.put("count", s.length);
        return out;
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** Each percentile's median over the rounds (so one slow round moves none of them), and the total count. */
    static ObjectNode medianOf(ObjectNode[] rounds) {
        ObjectNode out = Json.object();
        for (String p : new String[] {"p50", "p99", "p99.9"}) {
            out.put(p, median(Arrays.stream(rounds).mapToDouble(r -> r.get(p).asDouble()).toArray()));
        }
        out.put("count", Arrays.stream(rounds).mapToLong(r -> r.get("count").asLong()).sum());
        return out;
    }
}
