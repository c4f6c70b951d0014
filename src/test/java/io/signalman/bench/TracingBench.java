package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.signalman.app.Server;
import io.signalman.bench.LoadTargets.Target;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import io.signalman.tracing.TracingConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What tracing costs (docs/performance.md): the broker route saturated on two servers side by side,
 * one with tracing off and one sending every request's spans (each request a new trace, all kept:
 * the dearest setting) over OTLP/HTTP to a stand-in collector on 127.0.0.1, in alternating rounds
 * so that a slow spell of the machine falls on both. Writes target/bench/tracing.json; the figure
 * to read is the ratio, measured in one run.
 */
public final class TracingBench {

    private TracingBench() {
    }

    public static void main(String[] args) throws Exception {
        AtomicLong exports = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", x -> {
            bytes.addAndGet(x.getRequestBody().readAllBytes().length);
            exports.incrementAndGet();
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        collector.start();
        ObjectNode results = Json.object();
        ServerConfig base = ServerConfig.defaults().withPort(0);
        try (Server off = Server.start(base.withData(Files.createTempDirectory("signalman-tracing-off")));
             Server on = Server.start(base.withData(Files.createTempDirectory("signalman-tracing-on"))
                     .withTracing(TracingConfig.otlp("http://127.0.0.1:" + collector.getAddress().getPort(), 1.0)))) {
            Vertx vertx = Vertx.vertx();
            HttpClientAgent client = HttpLoad.client(vertx, HttpLoad.IN_FLIGHT);
            Target route = new Target("POST /v1/broker/route", HttpMethod.POST, "/v1/broker/route", LoadTargets.bodies("broker"));
            for (int round = 0; round < 2; round++) {
                HttpLoad.saturate(client, off.port(), route, HttpLoad.WARMUP_SECONDS);
                HttpLoad.saturate(client, on.port(), route, HttpLoad.WARMUP_SECONDS);
            }
            results.put("jit_wait_s", HttpLoad.awaitQuietJit());
            int rounds = HttpLoad.ROUNDS + 2;
            double[] offRps = new double[rounds];
            double[] onRps = new double[rounds];
            ObjectNode[] offLatency = new ObjectNode[rounds];
            ObjectNode[] onLatency = new ObjectNode[rounds];
            for (int r = 0; r < rounds; r++) {
                long[] a = HttpLoad.saturate(client, off.port(), route, HttpLoad.SECONDS);
                long[] b = HttpLoad.saturate(client, on.port(), route, HttpLoad.SECONDS);
                offRps[r] = a.length / (double) HttpLoad.SECONDS;
                onRps[r] = b.length / (double) HttpLoad.SECONDS;
                offLatency[r] = HttpLoad.percentiles(Json.object(), a);
                onLatency[r] = HttpLoad.percentiles(Json.object(), b);
                System.out.printf("tracing: round %d broker route %,10.0f req/s off, %,10.0f req/s on%n", r + 1, offRps[r], onRps[r]);
            }
            on.tracing().flush();
            client.close().await();
            vertx.close().await();
            double offMedian = HttpLoad.median(offRps);
            double onMedian = HttpLoad.median(onRps);
            results.put("off_rps", offMedian);
            results.put("on_rps", onMedian);
            results.put("on_vs_off", onMedian / offMedian);
            results.set("off_latency_ms", HttpLoad.medianOf(offLatency));
            results.set("on_latency_ms", HttpLoad.medianOf(onLatency));
            results.put("otlp_exports", exports.get());
            results.put("otlp_bytes", bytes.get());
            System.out.printf("tracing: broker route saturated, off %,.0f req/s, on %,.0f req/s (%.2fx); %,d OTLP exports, %,d bytes%n",
                    offMedian, onMedian, onMedian / offMedian, exports.get(), bytes.get());
        } finally {
            collector.stop(0);
        }
        Files.createDirectories(HistoryInputs.benchDir());
        Files.writeString(HistoryInputs.benchDir().resolve("tracing.json"), Json.write(results) + "\n");
    }

    /** tracing.json's row in the bench table. */
    static String row(com.fasterxml.jackson.databind.JsonNode t) {
        return String.format(java.util.Locale.ROOT, "tracing: broker route saturated, off %,.0f req/s, on %,.0f req/s (on/off %.2fx;"
                + " every request traced and sent over OTLP/HTTP to a local collector); p99 %.2f ms off, %.2f ms on%n",
                t.get("off_rps").asDouble(), t.get("on_rps").asDouble(), t.get("on_vs_off").asDouble(),
                t.at("/off_latency_ms/p99").asDouble(), t.at("/on_latency_ms/p99").asDouble());
    }
}
