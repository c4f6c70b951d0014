package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Idempotency: a request seen again under the same {@code Idempotency-Key}
 * (or broker/dispatch message {@code id}) gets the first answer byte for byte and changes
 * nothing again; the decision log holds it once.
 */
class IdempotencyTest {

    private static final String TEACHER = "{\"agent\": \"teacher\", \"response\": \"Question 1: 2+2? [QUESTION]\", \"tool_calls\": 0}";

    @RegisterExtension
    static final TestServer server = TestServer.starting(dir -> Server.start(TestBundles.seedServer().withData(dir)));
    /** Decisions this class expects in the log so far (one writer: it catches up to exactly this). */
    private static long decided;

    @Test
    void aRepeatedFsmActionWithTheSameKeyReturnsTheFirstAnswerAndMovesTheStateOnce() throws Exception {
        // Given an idle instance and an action sent with a key
        assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"idem-1\", \"machine\": \"review-flow\"}", null).statusCode());
        HttpResponse<String> first = post("/v1/fsm/instances/idem-1/actions", "{\"action\": \"start\"}", "start-idem-1");
        assertEquals(200, first.statusCode(), first.body());
        decided++;

        // When the same request is sent again
        HttpResponse<String> again = post("/v1/fsm/instances/idem-1/actions", "{\"action\": \"start\"}", "start-idem-1");

        // Then it gets the first 200 (not a 409 from running), marked as replayed, and the state moved once
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(first.body(), again.body());
        assertEquals("true", again.headers().firstValue("idempotent-replayed").orElse(""));
        assertEquals("running", Json.parse(server.get("/v1/fsm/instances/idem-1").body()).get("current_state").asText());
        // and without the key the same action is a new request, refused from the new state
        assertEquals(409, post("/v1/fsm/instances/idem-1/actions", "{\"action\": \"start\"}", null).statusCode());
        decided++;
        assertLoggedOnce();
    }

    @Test
    void aReusedKeyWithADifferentBodyIsRefused422AndChangesNothing() throws Exception {
        assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"idem-2\", \"machine\": \"review-flow\"}", null).statusCode());
        assertEquals(200, post("/v1/fsm/instances/idem-2/actions", "{\"action\": \"start\"}", "k-idem-2").statusCode());
        decided++;

        HttpResponse<String> other = post("/v1/fsm/instances/idem-2/actions", "{\"action\": \"finish\"}", "k-idem-2");

        assertEquals(422, other.statusCode(), other.body());
        assertEquals("idempotency_key_reused", Json.parse(other.body()).get("error").asText());
        assertEquals("running", Json.parse(server.get("/v1/fsm/instances/idem-2").body()).get("current_state").asText());
        assertLoggedOnce();
    }

    @Test
    void aRepeatedHandoffTurnWithTheSameKeyCountsOneHandoff() throws Exception {
        assertEquals(201, post("/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"idem-3\"}", null).statusCode());
        HttpResponse<String> first = post("/v1/handoff/conversations/idem-3/turns", TEACHER, "turn-1");
        assertEquals(200, first.statusCode(), first.body());
        decided++;

        HttpResponse<String> again = post("/v1/handoff/conversations/idem-3/turns", TEACHER, "turn-1");

        assertEquals(200, again.statusCode(), again.body());
        assertEquals(first.body(), again.body());
        assertEquals(1, Json.parse(server.get("/v1/handoff/conversations/idem-3").body()).get("handoff_count").asInt());
        assertLoggedOnce();
    }

    @Test
    void aBrokerMessageIdIsItsIdempotencyKeyOverHttpAndTheEventBus() throws Exception {
        String message = "{\"id\": \"msg-idem-4\", \"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"},"
                + " \"type\": \"event\", \"subtype\": \"trade.executed\"}";
        HttpResponse<String> first = post("/v1/broker/route", message, null);
        decided++;
        HttpResponse<String> again = post("/v1/broker/route", message, null);
        assertEquals(first.body(), again.body());
        assertEquals("true", again.headers().firstValue("idempotent-replayed").orElse(""));

        HttpResponse<String> reused = post("/v1/broker/route", message.replace("trade.executed", "trade.entry"), null);
        assertEquals(422, reused.statusCode(), reused.body());

        JsonNode overBus = bus(message);
        decided++;
        JsonNode overBusAgain = bus(message);
        assertEquals(overBus.get("decision_id"), overBusAgain.get("decision_id"));
        assertNotEquals(Json.parse(first.body()).get("decision_id"), overBus.get("decision_id"),
                "HTTP and the bus are different endpoints: the same id there is a different request");
        assertLoggedOnce();
    }

    @Test
    void theSameKeyOnTwoEndpointsIsTwoRequests() throws Exception {
        String message = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"}, \"type\": \"event\","
                + " \"subtype\": \"trade.executed\"}";
        HttpResponse<String> broker = post("/v1/broker/route", message, "shared-key");
        HttpResponse<String> batch = post("/v1/broker/route:batch", "[" + message + "]", "shared-key");
        assertEquals(200, broker.statusCode());
        assertEquals(200, batch.statusCode(), batch.body());
        assertFalse(batch.headers().firstValue("idempotent-replayed").isPresent());
        decided += 2;
        assertLoggedOnce();
    }

    /** The log holds exactly the decisions made: none for a replay, a refusal or a 422. */
    private static void assertLoggedOnce() {
        Await.until(Duration.ofSeconds(10), "the log to write " + decided, () -> server.server().decisionLog().written() >= decided);
        assertEquals(decided, server.server().decisionLog().written(), "replayed answers are not logged again");
    }

    private static JsonNode bus(String body) throws Exception {
        Message<Object> reply = server.vertx().eventBus().request(BrokerApi.ADDRESS, new JsonObject(body))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return Json.parse(((JsonObject) reply.body()).encode());
    }

    private static HttpResponse<String> post(String path, String body, String key) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Idempotency-Key", key);
        }
        return HttpCalls.CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anAnswerTheStoreCannotKeepIsStillGivenRememberedHereAndItsKeyIsNotLeftInProgress() throws Exception {
        // Given a store of answers whose disk refuses to keep them
        java.util.List<String> released = new java.util.ArrayList<>();
        io.signalman.state.SharedAnswers refusing = new io.signalman.state.SharedAnswers() {
            @Override
            public java.util.Optional<Held> claim(String id, byte[] digest, Duration reserve) {
                return java.util.Optional.empty();
            }

            @Override
            public void complete(String id, byte[] digest, int status, byte[] body, Duration window) {
                throw new io.signalman.datadir.StorageUnavailable("No space left on device");
            }

            @Override
            public void release(String id) {
                released.add(id);
            }
        };
        Idempotency idempotency = new Idempotency(Duration.ofMinutes(10), 100, refusing, Duration.ofSeconds(5));
        Idempotency.Key key = Idempotency.key("POST /v1/fsm/instances/r1/actions", "k1", "{}".getBytes());
        int[] runs = {0};

        // When a request whose change was made is answered
        Api.Reply first = idempotency.once(key, () -> new Api.Reply(200, ("{\"run\":" + ++runs[0] + "}").getBytes()));

        // Then its client gets the answer, the store's claim is released (never left in progress),
        // and a retry here gets the same answer without running again
        assertEquals(200, first.status());
        assertEquals(java.util.List.of(key.id()), released);
        Api.Reply again = idempotency.once(key, () -> new Api.Reply(200, ("{\"run\":" + ++runs[0] + "}").getBytes()));
        assertEquals(new String(first.body()), new String(again.body()));
        assertEquals(1, runs[0]);
    }
}
