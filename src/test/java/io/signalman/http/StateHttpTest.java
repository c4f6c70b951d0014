package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.signalman.state.MutableClock;
import io.signalman.state.StateConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention and the cap over HTTP: an expired instance or conversation answers 410
 * {@code expired} with when; a create beyond {@code --state-max-entries} answers 507
 * {@code state_full}; {@code /metrics} counts live, finished and expired entries. The server's
 * clock is moved by the test: no sleeping.
 */
class StateHttpTest {

    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

    @TempDir
    Path tmp;
    private final MutableClock clock = new MutableClock(T0);
    private Server server;

    @BeforeEach
    void start() throws Exception {
        StateConfig state = new StateConfig(true, Duration.ofDays(7), Duration.ofDays(30), 3, null, clock);
        server = Server.start(ServerConfig.defaults().withPort(0).withRules(TestBundles.RULES).withFixtures(TestBundles.FIXTURES)
                .withData(tmp.resolve("data")).withState(state));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anExpiredInstanceOrConversationAnswers410WithWhenAndMetricsCountIt() throws Exception {
        // Given an instance in a final state (done has no way out), a live one, and a conversation that ended
        assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}").statusCode());
        assertEquals(200, post("/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}").statusCode());
        assertEquals(200, post("/v1/fsm/instances/r1/actions", "{\"action\": \"finish\"}").statusCode());
        assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"r2\", \"machine\": \"review-flow\"}").statusCode());
        assertEquals(201, post("/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"c1\"}").statusCode());
        assertEquals(200, post("/v1/handoff/conversations/c1/turns",
                "{\"agent\": \"teacher\", \"response\": \"that is all [END_EXAM]\"}").statusCode());
        assertEquals(200, post("/v1/handoff/conversations/c1/turns",
                "{\"agent\": \"reporter\", \"response\": \"written up [DONE]\"}").statusCode());
        String metrics = get("/metrics").body();
        assertTrue(metrics.contains("signalman_state_entries{status=\"finished\",store=\"fsm\"} 1.0"), metrics);
        assertTrue(metrics.contains("signalman_state_entries{status=\"live\",store=\"fsm\"} 1.0"), metrics);
        assertTrue(metrics.contains("signalman_state_entries{status=\"finished\",store=\"handoff\"} 1.0"), metrics);

        // When seven days pass and retention runs
        clock.advance(Duration.ofDays(7));
        assertEquals(2, server.state().sweep());

        // Then the finished ones answer 410 expired, saying when; the live one is still there
        for (String path : new String[] {"/v1/fsm/instances/r1", "/v1/handoff/conversations/c1"}) {
            HttpResponse<String> r = get(path);
            assertEquals(410, r.statusCode(), r.body());
            JsonNode error = Json.parse(r.body());
            assertEquals("expired", error.get("error").asText());
            assertEquals(T0.plus(Duration.ofDays(7)).toString(), error.get("details").get("expired_at").asText());
        }
        assertEquals(410, post("/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}").statusCode());
        assertEquals(200, get("/v1/fsm/instances/r2").statusCode());
        metrics = get("/metrics").body();
        assertTrue(metrics.contains("signalman_state_entries{status=\"expired\",store=\"fsm\"} 1.0"), metrics);
        assertTrue(metrics.contains("signalman_state_expired{store=\"handoff\"} 1.0"), metrics);
        // ... and an id never seen is still 404
        assertEquals(404, get("/v1/fsm/instances/never").statusCode());
    }

    @Test
    void aCreateBeyondTheCapAnswers507StateFull() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(201, post("/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"c" + i + "\"}").statusCode());
        }
        HttpResponse<String> full = post("/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"c3\"}");
        assertEquals(507, full.statusCode(), full.body());
        assertEquals("state_full", Json.parse(full.body()).get("error").asText());
        // ... the stores are capped each: FSM instances may still be created
        assertEquals(201, post("/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}").statusCode());
        // ... and the entries held still move
        assertEquals(200, post("/v1/handoff/conversations/c0/turns", "{\"agent\": \"teacher\", \"response\": \"hi\"}").statusCode());
    }

    private HttpResponse<String> post(String path, String body) {
        return ContractServer.sendAs(server.port(), "POST", path, body, null);
    }

    private HttpResponse<String> get(String path) {
        return ContractServer.sendAs(server.port(), "GET", path, null, null);
    }
}
