package io.signalman.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.app.Server;
import io.signalman.bench.LoadTargets.Target;
import io.signalman.json.Json;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What a live trial costs the broker route, over HTTP with the decision log on, as
 * {@link HttpLoad} measures an endpoint: saturated throughput and the latency at half load (half
 * of the no-trial saturation rate for every condition, so the p99s compare at one offered load)
 * with no trial, with a shadow trial at 100% (every request decided a second time off its path,
 * compared and logged) and with a canary at 50% (half the senders decided by both arms inline).
 * The candidate is the shipped rules with a comment added: it agrees everywhere, so what is
 * measured is the trial's own work, not a divergence's. Each condition runs in every round in
 * turn, a new trial each time, and each figure is the median of its rounds. Writes
 * {@code target/bench/trials.json}, which {@link BenchTable} shows.
 */
public final class TrialBench {

    static final String NONE = "no trial";
    static final String SHADOW = "shadow 100%";
    static final String CANARY = "canary 50%";
    private static final String[] CONDITIONS = {NONE, SHADOW, CANARY};
    private static final String TOKEN = "trial-bench-token";
    private static final HttpClient ADMIN = HttpClient.newHttpClient();

    private TrialBench() {
    }

    public static void main(String[] args) throws Exception {
        HttpLoad.measure("trials.json", config -> config.withAdminToken(TOKEN), (server, vertx, client, results) -> {
            int port = server.port();
            Target broker = new Target("POST /v1/broker/route", HttpMethod.POST, "/v1/broker/route", LoadTargets.bodies("broker"));
            String draft = draft(port);
            for (int round = 0; round < HttpLoad.WARMUP_ROUNDS; round++) {
                for (String c : CONDITIONS) {
                    String trial = start(port, draft, c);
                    double warmRps = HttpLoad.saturate(client, port, broker, HttpLoad.WARMUP_SECONDS).length
                            / (double) HttpLoad.WARMUP_SECONDS;
                    HttpLoad.openLoop(vertx, client, port, broker, warmRps / 2, 1);
                    end(server, trial);
                }
            }
            results.put("jit_wait_s", HttpLoad.awaitQuietJit());
            int rounds = HttpLoad.ROUNDS;
            double[][] rps = new double[CONDITIONS.length][rounds];
            long[] dropped = new long[CONDITIONS.length];
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < CONDITIONS.length; k++) {
                    String trial = start(port, draft, CONDITIONS[k]);
                    rps[k][round] = HttpLoad.saturate(client, port, broker, HttpLoad.SECONDS).length / (double) HttpLoad.SECONDS;
                    dropped[k] += end(server, trial);
                    System.out.printf("trials: round %d %-12s %,10.0f req/s saturated%n", round + 1, CONDITIONS[k], rps[k][round]);
                }
            }
            double halfRate = HttpLoad.median(rps[0]) / 2;
            ObjectNode[][] half = new ObjectNode[CONDITIONS.length][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < CONDITIONS.length; k++) {
                    String trial = start(port, draft, CONDITIONS[k]);
                    half[k][round] = HttpLoad.percentiles(Json.object(), HttpLoad.openLoop(vertx, client, port, broker, halfRate,
                            HttpLoad.SECONDS));
                    dropped[k] += end(server, trial);
                    System.out.printf("trials: round %d %-12s at %,.0f req/s p99 %.2f ms%n", round + 1, CONDITIONS[k], halfRate,
                            half[k][round].get("p99").asDouble());
                }
            }
            for (int k = 0; k < CONDITIONS.length; k++) {
                ObjectNode r = results.putObject(CONDITIONS[k]);
                r.put("saturated_rps", HttpLoad.median(rps[k]));
                r.set("half_rate_latency_ms", HttpLoad.medianOf(half[k]));
                r.put("half_rate_rps", halfRate);
                r.put("shadow_dropped", dropped[k]);
                ArrayNode each = r.putArray("rounds");
                for (int round = 0; round < rounds; round++) {
                    each.addObject().put("saturated_rps", rps[k][round]).<ObjectNode>set("half_rate_latency_ms", half[k][round]);
                }
            }
            results.put("shadow_vs_no_trial", results.at("/" + SHADOW + "/saturated_rps").asDouble()
                    / results.at("/" + NONE + "/saturated_rps").asDouble());
            results.put("canary_vs_no_trial", results.at("/" + CANARY + "/saturated_rps").asDouble()
                    / results.at("/" + NONE + "/saturated_rps").asDouble());
            results.put("shadow_added_p99_ms", results.at("/" + SHADOW + "/half_rate_latency_ms/p99").asDouble()
                    - results.at("/" + NONE + "/half_rate_latency_ms/p99").asDouble());
        });
    }

    /** A workbench draft of the served rules with a comment added: a candidate that decides as they do. */
    private static String draft(int port) throws Exception {
        String id = admin(port, "POST", "/workbench/api/drafts", null).get("id").asText();
        String file = "/workbench/api/drafts/" + id + "/file?path=broker/routing.drl";
        String text = admin(port, "GET", file, null).get("text").asText();
        admin(port, "PUT", file, Json.object().put("version", 1).put("text", text + "// tried in the trial benchmark\n"));
        return id;
    }

    /** Starts the condition's trial; null for no trial. */
    private static String start(int port, String draft, String condition) throws Exception {
        ObjectNode body = switch (condition) {
            case SHADOW -> Json.object().put("draft", draft).put("mode", "shadow");
            case CANARY -> Json.object().put("draft", draft).put("mode", "canary").put("percent", 50);
            default -> null;
        };
        return body == null ? null : admin(port, "POST", "/v1/trials", body).get("id").asText();
    }

    /**
     * Aborts the trial (when there is one) and waits until its queued work is done, so that none
     * of it runs into the next condition's measurement; answers the shadow work it dropped
     * because its queue was full.
     */
    private static long end(Server server, String trial) throws Exception {
        if (trial == null) {
            return 0;
        }
        long dropped = admin(server.port(), "POST", "/v1/trials/" + trial + "/abort", null).path("shadow_dropped").asLong();
        io.signalman.Await.until(java.time.Duration.ofSeconds(60), "the trial's queue to drain", () -> server.trials().queued() == 0);
        return dropped;
    }

    private static JsonNode admin(int port, String method, String path, JsonNode body) throws Exception {
        HttpResponse<String> r = ADMIN.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("authorization", "Bearer " + TOKEN).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(Json.write(body)))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return Json.MAPPER.readTree(r.body());
    }
}
