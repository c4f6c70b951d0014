package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.datadir.FillingDisk;
import io.signalman.replay.Archive;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, with the write failure injected under every data file (the decision log, the state
 * journal, the idempotency answers): while the disk refuses writes, every endpoint that would
 * change something answers 503 {@code storage_unavailable} with {@code Retry-After}, and changes
 * nothing (no state moves, no record is logged later); a keyed request's key is released, so its
 * retry runs once the disk takes writes; {@code /ready} says why; service resumes by itself.
 */
class StorageOutageHttpTest {

    private static final String MESSAGE = TestBundles.TRADE_EXECUTED;
    private static final String TURN = "{\"agent\": \"teacher\", \"response\": \"Question 1: 2+2? [QUESTION]\", \"tool_calls\": 0}";

    @TempDir
    Path data;

    @Test
    void whileTheDiskRefusesWritesEveryChangeIsRefusedAndNothingChangesThenServiceResumes() throws Exception {
        FillingDisk disk = new FillingDisk();
        Set<String> acknowledged = new HashSet<>();
        Server server = Server.start(ServerConfig.defaults().withPort(0).withData(data), disk);
        try {
            int port = server.port();
            acknowledged.add(decisionId(HttpCalls.json(HttpCalls.post(port, "/v1/broker/route", MESSAGE, null), 200)));
            assertEquals(201, HttpCalls.post(port, "/v1/fsm/instances", "{\"id\": \"o-1\", \"machine\": \"review-flow\"}", null).statusCode());
            assertEquals(201, HttpCalls.post(port, "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"c-1\"}", null).statusCode());

            // When the disk fills up
            disk.full = true;

            // Then every change is refused with 503 storage_unavailable and Retry-After: a decision ...
            HttpResponse<String> refused = HttpCalls.post(port, "/v1/broker/route", MESSAGE, null);
            assertEquals("storage_unavailable", HttpCalls.error(refused, 503).get("error").asText());
            assertEquals("1", refused.headers().firstValue("retry-after").orElse(""));
            // ... creates, which write the state journal ...
            refusedForStorage(HttpCalls.post(port, "/v1/fsm/instances", "{\"id\": \"o-2\", \"machine\": \"review-flow\"}", null));
            refusedForStorage(HttpCalls.post(port, "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"c-2\"}", null));
            // ... an FSM action and a handoff turn, keyed, and nothing moves
            refusedForStorage(HttpCalls.post(port, "/v1/fsm/instances/o-1/actions", "{\"action\": \"start\"}", "k-action"));
            refusedForStorage(HttpCalls.post(port, "/v1/handoff/conversations/c-1/turns", TURN, "k-turn"));
            assertEquals("idle", HttpCalls.json(HttpCalls.get(port, "/v1/fsm/instances/o-1"), 200).get("current_state").asText());
            assertEquals(0, HttpCalls.json(HttpCalls.get(port, "/v1/handoff/conversations/c-1"), 200).get("handoff_count").asInt());
            assertEquals(404, HttpCalls.get(port, "/v1/fsm/instances/o-2").statusCode());
            // ... and /ready says why, while /health stays live
            JsonNode ready = HttpCalls.error(HttpCalls.get(port, "/ready"), 503);
            assertEquals("storage_writable", ready.at("/details/conditions/0/condition").asText(), ready.toString());
            assertEquals(200, HttpCalls.get(port, "/health").statusCode());

            // When space returns, service resumes by itself ...
            disk.full = false;
            Await.until(Duration.ofSeconds(10), "/ready to be 200 again", () -> HttpCalls.get(port, "/ready").statusCode() == 200);
            acknowledged.add(decisionId(HttpCalls.json(HttpCalls.post(port, "/v1/broker/route", MESSAGE, null), 200)));
            // ... and the refused keys were released: their retries run now (not 409 in progress), once
            JsonNode moved = HttpCalls.json(HttpCalls.post(port, "/v1/fsm/instances/o-1/actions", "{\"action\": \"start\"}", "k-action"), 200);
            assertEquals("running", moved.get("to").asText());
            HttpResponse<String> again = HttpCalls.post(port, "/v1/fsm/instances/o-1/actions", "{\"action\": \"start\"}", "k-action");
            assertEquals(moved.toString(), HttpCalls.json(again, 200).toString());
            assertEquals("true", again.headers().firstValue("idempotent-replayed").orElse(""));
            assertEquals(200, HttpCalls.post(port, "/v1/handoff/conversations/c-1/turns", TURN, "k-turn").statusCode());
            assertEquals(1, server.storage().outages());
        } finally {
            server.close();
        }
        // ... and every decision answered 200 is in the log, which reads back whole; no refused one is
        Archive archive = Archive.read(List.of(data.resolve("decisions")));
        Set<String> logged = new HashSet<>();
        int[] actions = {0};
        archive.files().forEach(f -> {
            assertEquals(List.of(), f.problems());
            f.entries().forEach(e -> {
                logged.add(e.record().decisionId());
                actions[0] += e.record().pack().equals("fsm") ? 1 : 0;
            });
        });
        assertTrue(logged.containsAll(acknowledged), "acknowledged but not logged");
        assertEquals(1, actions[0], "the refused FSM action was logged after all");
    }

    private static void refusedForStorage(HttpResponse<String> r) {
        assertEquals("storage_unavailable", HttpCalls.error(r, 503).get("error").asText(), r.body());
    }

    private static String decisionId(JsonNode decision) {
        return decision.get("decision_id").asText();
    }
}
