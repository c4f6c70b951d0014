package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * No rule can stall the server: every decision worker is held by a rule whose
 * condition does not return (the test bundle's gate, {@link Brake#hold}), as a backtracking
 * regular expression or a slow platform method would hold it. Nothing here is timed: every call
 * has a client timeout of 20 s, far beyond what an answer takes, and the gate holds for up to
 * 60 s, so an endpoint that waits behind the held rules fails its call instead of answering.
 */
class StallTest {

    private static final int WORKERS = 2;
    private static final long DEADLINE_MS = 300;
    private static final String TOKEN = "stall-test-token";
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @RegisterExtension
    static final TestServer server = TestServer.starting(StallTest::start);

    /** Each test ends with every held evaluation released and the server back to no stuck worker. */
    @AfterEach
    void release() {
        Brake.open();
        Await.until(PATIENCE, "the held evaluations to end", () -> Brake.held() == 0);
        Await.until(PATIENCE, "no worker to be stuck", () -> health().path("stuck_workers").asInt() == 0
                && health().path("abandoned_workers").asInt() == 0);
    }

    @Test
    void withEveryWorkerHeldTheOperatorEndpointsAnswerAndNewDecisionsAreMadeByReplacementWorkers() throws Exception {
        // Given every decision worker held by a rule that does not return
        Brake.close();
        List<CompletableFuture<HttpResponse<String>>> held = hold(WORKERS);

        // Then each held request is answered 503 at its deadline, while its worker stays held
        for (CompletableFuture<HttpResponse<String>> f : held) {
            HttpResponse<String> r = f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertEquals(503, r.statusCode(), r.body());
            assertEquals("deadline_exceeded", Json.parse(r.body()).get("error").asText());
        }
        assertEquals(WORKERS, Brake.held(), "the rules still hold every worker");

        // and the operator endpoints answer
        assertEquals(200, get("/metrics").statusCode());
        assertEquals(200, get("/v1/rules").statusCode());

        // and /health counts the stuck workers and, as each was replaced, stays live
        JsonNode live = Await.value(PATIENCE, "/health to count every stuck worker, abandoned and replaced", () -> {
            JsonNode h = health();
            return h.path("stuck_workers").asInt() == WORKERS && h.path("abandoned_workers").asInt() == WORKERS ? h : null;
        });
        assertEquals("live", live.get("status").asText(), live.toString());
        assertEquals(WORKERS, live.get("abandoned_workers").asInt(), live.toString());
        assertTrue(live.get("max_abandoned_workers").asInt() >= WORKERS, live.toString());
        HttpResponse<String> metrics = get("/metrics");
        assertTrue(metrics.body().contains("signalman_stuck_workers " + WORKERS + ".0"), "the stuck workers are counted");
        assertTrue(metrics.body().contains("signalman_abandoned_workers " + WORKERS + ".0"), "the abandoned workers are counted");
        HttpResponse<String> ready = get("/ready");
        assertEquals(200, ready.statusCode(), "full capacity: every stuck worker was replaced; " + ready.body());

        // When a new message arrives, it is decided, correctly, by a replacement worker
        HttpResponse<String> ok = post("misc.hello");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("everything else goes to openclaw", Json.parse(ok.body()).get("rule").asText());
        assertEquals(WORKERS, Brake.held(), "the held evaluations are still held");

        // And once the held evaluations end, their threads go and the server decides as before
        Brake.open();
        Await.until(PATIENCE, "the abandoned workers to end", () -> health().path("abandoned_workers").asInt() == 0);
        assertEquals(0, health().get("stuck_workers").asInt());
        assertEquals(200, post("misc.hello").statusCode());
        Await.until(PATIENCE, "every request slot to be released", () -> server.server().inFlight() == 0);
    }

    @Test
    void pastTheBoundOfAbandonedWorkersLivenessTurns503AndDecisionsAreRefusedAtOnceUntilTheRulesLetGo() throws Exception {
        // Given every worker held, then every replacement worker held too, up to the bound
        Brake.close();
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>(hold(WORKERS));
        Await.until(PATIENCE, "every held worker to be abandoned", () -> health().path("abandoned_workers").asInt() == WORKERS);
        int bound = health().get("max_abandoned_workers").asInt();
        for (int round = 0; round * WORKERS < bound; round++) {
            int before = Brake.held();
            held.addAll(hold(WORKERS));
            Await.until(PATIENCE, "the next workers to be held", () -> Brake.held() == before + WORKERS);
        }

        // Then liveness turns 503 (nothing but the rules letting go, or a restart, brings decisions back)
        HttpResponse<String> health = Await.value(PATIENCE, "/health to report the stall", () -> {
            HttpResponse<String> h = get("/health");
            return h.statusCode() == 503 ? h : null;
        });
        JsonNode stalled = Json.parse(health.body());
        assertEquals("stalled", stalled.get("error").asText(), health.body());
        assertEquals(bound + WORKERS, stalled.get("details").get("stuck_workers").asInt(), health.body());
        assertEquals(bound, stalled.get("details").get("abandoned_workers").asInt(), health.body());
        // and /ready is 503 naming its condition, while /metrics and /v1/rules still answer
        HttpResponse<String> ready = get("/ready");
        assertEquals(503, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("decision_workers"), ready.body());
        assertEquals(200, get("/metrics").statusCode());
        assertEquals(200, get("/v1/rules").statusCode());
        // and so do the admin endpoints: a reload, and an FSM restore
        HttpResponse<String> reload = admin("POST", "/v1/rules/reload", "");
        assertEquals(200, reload.statusCode(), reload.body());
        HttpResponse<String> restore = admin("PUT", "/v1/fsm/instances/agent-7",
                "{\"type\":\"fsm\",\"machine\":\"review-flow\",\"current_state\":\"running\"}");
        assertEquals(200, restore.statusCode(), restore.body());

        // and a new message is refused at admission (overloaded), not left to wait for its deadline
        HttpResponse<String> refused = post("misc.hello");
        assertEquals(503, refused.statusCode(), refused.body());
        assertEquals("overloaded", Json.parse(refused.body()).get("error").asText());
        assertTrue(refused.headers().firstValue("retry-after").isPresent(), "Retry-After is set");

        // When the rules let go, the server is live, ready and deciding again
        Brake.open();
        Await.until(PATIENCE, "/health to be 200 again", () -> get("/health").statusCode() == 200);
        Await.until(PATIENCE, "/ready to be 200 again", () -> get("/ready").statusCode() == 200);
        HttpResponse<String> ok = post("misc.hello");
        assertEquals(200, ok.statusCode(), ok.body());
        for (CompletableFuture<HttpResponse<String>> f : held) {
            assertEquals(503, f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).statusCode());
        }
    }

    /** Sends {@code n} messages that the test bundle holds at its gate, and waits until they are. */
    private static List<CompletableFuture<HttpResponse<String>>> hold(int n) {
        int before = Brake.held();
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            held.add(HttpCalls.CLIENT.sendAsync(request("test.held"), HttpResponse.BodyHandlers.ofString()));
        }
        Await.until(PATIENCE, n + " more evaluations to be held", () -> Brake.held() == before + n);
        return held;
    }

    private static JsonNode health() {
        try {
            return Json.parse(get("/health").body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpRequest request(String subtype) {
        return HttpRequest.newBuilder(server.uri("/v1/broker/route"))
                .timeout(PATIENCE).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"envelope\":{\"from_agent\":\"foresight\",\"priority\":\"normal\"},"
                        + "\"type\":\"event\",\"subtype\":\"" + subtype + "\"}")).build();
    }

    private static HttpResponse<String> post(String subtype) throws Exception {
        return HttpCalls.CLIENT.send(request(subtype), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return HttpCalls.CLIENT.send(HttpRequest.newBuilder(server.uri(path)).timeout(PATIENCE)
                .header("authorization", "Bearer " + TOKEN).header("content-type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path) {
        try {
            return HttpCalls.CLIENT.send(HttpRequest.newBuilder(server.uri(path))
                    .timeout(PATIENCE).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(path + " did not answer within " + PATIENCE, e);
        }
    }

    /** The slow rules, and one FSM machine so that an admin restore has something to restore. */
    private static Server start(Path tmp) throws Exception {
        Path rules = Brake.rules(tmp);
        Files.createDirectories(rules.resolve("fsm"));
        Files.writeString(rules.resolve("fsm/machines.json"), "{\"machines\": [{\"name\": \"review-flow\", \"initial\": \"idle\", "
                + "\"states\": [\"idle\", \"running\", \"revising\", \"done\"]}]}\n");
        Files.copy(TestBundles.RULES.resolve("fsm/review-flow.drl"), rules.resolve("fsm/review-flow.drl"));
        return Server.start(TestBundles.seedServer().withRules(rules).withFixtures(tmp.resolve("none"))
                .withData(tmp.resolve("data")).withWorkers(WORKERS).withAdminToken(TOKEN)
                .withLimits(RequestLimits.defaults().withDeadlineMs(DEADLINE_MS)), Brake.packs());
    }
}
