package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every request has a deadline, proven with the deliberately slow rules of
 * {@code src/test/bundles/slow-rules}. Nothing here is timed: a runaway rule would run for a
 * minute (10,000 firings of 5 ms) and the client waits at most 20 s, so a 503 at all shows the
 * deadline answered; the firing count shows the rules were halted rather than left to run out.
 */
class DeadlineTest {

    private static final long DEADLINE_MS = 300;

    @RegisterExtension
    static final TestServer server = TestServer.starting(DeadlineTest::start);

    @Test
    void aRunawayRuleIsHaltedAtTheDeadlineWith503AndTheServerKeepsDecidingCorrectly() throws Exception {
        for (int round = 0; round < 3; round++) {
            // Given a rule that re-activates itself forever, slowly; when a message triggers it
            long before = Brake.crawled();
            HttpResponse<String> r = post(message("test.runaway"));

            // Then the client gets 503 deadline_exceeded with Retry-After
            assertDeadlineExceeded(r);
            // and the worker comes back: the rules were halted, not left to fire for a minute
            Await.until(Duration.ofSeconds(10), "the runaway evaluation to be halted", () -> server.server().inFlight() == 0);
            long fired = Brake.crawled() - before;
            assertTrue(fired > 0 && fired < 10_000, "halted before the firing bound, after " + fired + " firings");
            long afterHalt = Brake.crawled();

            // and the next message is decided correctly (a halted session is never reused)
            HttpResponse<String> ok = post(message("misc.hello"));
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals("everything else goes to openclaw", Json.parse(ok.body()).get("rule").asText());
            assertEquals(afterHalt, Brake.crawled(), "the halted rule fires no more");
        }
    }

    @Test
    void aWorkerStuckInAConditionStillAnswers503AndItsLateDecisionIsNeitherReturnedNorLogged() throws Exception {
        // Given a condition that blocks its worker until the test opens the gate
        Brake.close();
        long logged = server.server().decisionLog().written();
        try {
            CompletableFuture<HttpResponse<String>> held = HttpCalls.CLIENT.sendAsync(request(message("test.held")),
                    HttpResponse.BodyHandlers.ofString());

            // When the deadline passes, the client is answered while the worker is still stuck
            HttpResponse<String> r = held.get(20, TimeUnit.SECONDS);
            assertEquals(1, Brake.held(), "the evaluation is still blocked when the 503 arrives");
            assertDeadlineExceeded(r);
        } finally {
            Brake.open();
        }
        // Then, once it finishes, its late decision is thrown away: nothing more in the log
        Await.until(Duration.ofSeconds(10), "the held evaluation to finish", () -> server.server().inFlight() == 0);
        HttpResponse<String> ok = post(message("misc.hello"));
        assertEquals(200, ok.statusCode(), ok.body());
        String id = Json.parse(ok.body()).get("decision_id").asText();
        Await.until(Duration.ofSeconds(10), "the decision to be logged", () -> server.server().decisionLog().written() >= logged + 1);
        assertEquals(logged + 1, server.server().decisionLog().written(), "only the on-time decision " + id + " is logged");
    }

    @Test
    void aWorkerStuckPastItsDeadlineIsCountedAndReplacedUntilItEnds() throws Exception {
        // Given a worker held by a rule long past the deadline
        Brake.close();
        try {
            CompletableFuture<HttpResponse<String>> held = HttpCalls.CLIENT.sendAsync(request(message("test.held")),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> answer = held.get(20, TimeUnit.SECONDS);

            // Then its answer does not claim that nothing was changed (the worker is still busy)
            assertEquals(503, answer.statusCode(), answer.body());
            assertFalse(answer.body().contains("nothing was changed"), answer.body());
            // and /health counts it once it is stuck, its thread left to the rule and replaced
            Await.until(Duration.ofSeconds(10), "/health to report the stuck worker, replaced",
                    () -> health().get("stuck_workers").asInt() == 1 && health().get("abandoned_workers").asInt() == 1);
            // so the server stays ready (at full capacity), and /metrics counts it
            assertEquals(200, get("/ready").statusCode(), get("/ready").body());
            assertTrue(get("/metrics").body().contains("signalman_stuck_workers 1.0"), "the stuck worker is counted");
        } finally {
            Brake.open();
        }
        // When it ends, none is counted
        Await.until(Duration.ofSeconds(10), "the stuck worker to end",
                () -> health().get("stuck_workers").asInt() == 0 && health().get("abandoned_workers").asInt() == 0);
        assertTrue(get("/metrics").body().contains("signalman_stuck_workers 0.0"), "no stuck worker is counted");
    }

    @Test
    void theEventBusAddressFailsWith503WhenTheDeadlinePasses() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> server.vertx().eventBus()
                .request(BrokerApi.ADDRESS, new JsonObject(message("test.runaway")))
                .toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS));

        ReplyException reply = assertInstanceOf(ReplyException.class, e.getCause());
        assertEquals(503, reply.failureCode());
        assertTrue(reply.getMessage().contains("deadline_exceeded"), reply.getMessage());
        Await.until(Duration.ofSeconds(10), "the runaway evaluation to be halted", () -> server.server().inFlight() == 0);
    }

    private static void assertDeadlineExceeded(HttpResponse<String> r) throws Exception {
        assertEquals(503, r.statusCode(), r.body());
        JsonNode body = Json.parse(r.body());
        assertEquals("deadline_exceeded", body.get("error").asText());
        assertTrue(r.headers().firstValue("retry-after").isPresent(), "Retry-After is set");
        assertFalse(body.has("decision_id"), "no decision is returned past the deadline");
    }

    private static String message(String subtype) {
        return "{\"envelope\":{\"from_agent\":\"foresight\",\"priority\":\"normal\"},\"type\":\"event\",\"subtype\":\""
                + subtype + "\"}";
    }

    private static HttpRequest request(String body) {
        return HttpRequest.newBuilder(server.uri("/v1/broker/route"))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static HttpResponse<String> get(String path) {
        try {
            return HttpCalls.CLIENT.send(HttpRequest.newBuilder(server.uri(path))
                    .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode health() {
        try {
            return Json.parse(get("/health").body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> post(String body) throws Exception {
        return HttpCalls.CLIENT.send(request(body), HttpResponse.BodyHandlers.ofString());
    }

    private static Server start(Path tmp) throws Exception {
        return Server.start(TestBundles.seedServer().withRules(Brake.rules(tmp)).withFixtures(tmp.resolve("none"))
                .withData(tmp.resolve("data")).withLimits(RequestLimits.defaults().withDeadlineMs(DEADLINE_MS)), Brake.packs());
    }
}
