package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.decisionlog.FillingDisk;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17.2 with the write failure injected under the decision log: while the log cannot write,
 * decisions are refused with 503 {@code decision_log_unavailable} and {@code Retry-After}, no
 * state moves, {@code /ready} is 503 naming the log; service resumes by itself when the disk takes
 * writes again, and every decision answered 200 is in the log.
 */
class DecisionLogOutageHttpTest {

    private static final String MESSAGE = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"},"
            + " \"type\": \"event\", \"subtype\": \"trade.executed\"}";

    @TempDir
    Path data;

    @Test
    void whileTheLogCannotWriteDecisionsAreRefusedAndServiceResumesByItself() throws Exception {
        FillingDisk disk = new FillingDisk();
        Set<String> acknowledged = new HashSet<>();
        Server server = Server.start(ServerConfig.defaults().withPort(0).withData(data), disk);
        try {
            int port = server.port();
            acknowledged.add(decisionId(HttpCalls.json(post(port, "/v1/broker/route", MESSAGE), 200)));
            assertEquals(201, post(port, "/v1/fsm/instances", "{\"id\": \"o-1\", \"machine\": \"review-flow\"}").statusCode());

            // When the disk fills up
            disk.full = true;
            HttpResponse<String> refused = null;
            for (int i = 0; i < 1000 && refused == null; i++) {
                HttpResponse<String> r = post(port, "/v1/broker/route", MESSAGE);
                if (r.statusCode() == 200) {
                    acknowledged.add(decisionId(HttpCalls.json(r, 200)));
                } else {
                    refused = r;
                }
            }

            // Then decisions are refused with 503 decision_log_unavailable and Retry-After
            assertTrue(refused != null, "no decision was refused while the disk was full");
            assertEquals("decision_log_unavailable", HttpCalls.error(refused, 503).get("error").asText());
            assertEquals("1", refused.headers().firstValue("retry-after").orElse(""));
            // ... a state change is refused before it applies
            HttpCalls.error(post(port, "/v1/fsm/instances/o-1/actions", "{\"action\": \"start\"}"), 503);
            assertEquals("idle", HttpCalls.json(get(port, "/v1/fsm/instances/o-1"), 200).get("current_state").asText());
            // ... and /ready says why
            JsonNode ready = HttpCalls.error(get(port, "/ready"), 503);
            assertEquals("decision_log_writable", ready.at("/details/conditions/0/condition").asText(), ready.toString());

            // When space returns, service resumes by itself
            disk.full = false;
            Await.until(Duration.ofSeconds(10), "/ready to be 200 again", () -> get(port, "/ready").statusCode() == 200);
            acknowledged.add(decisionId(HttpCalls.json(post(port, "/v1/broker/route", MESSAGE), 200)));
            assertEquals("running", HttpCalls.json(post(port, "/v1/fsm/instances/o-1/actions", "{\"action\": \"start\"}"), 200)
                    .get("to").asText());
            assertTrue(server.decisionLog().outages() == 1);
        } finally {
            server.close();
        }
        // ... and every decision answered 200 is in the log, which reads back whole
        Archive archive = Archive.read(List.of(data.resolve("decisions")));
        Set<String> logged = new HashSet<>();
        archive.files().forEach(f -> {
            assertEquals(List.of(), f.problems());
            f.entries().forEach(e -> logged.add(e.record().decisionId()));
        });
        assertTrue(logged.containsAll(acknowledged), "acknowledged but not logged");
    }

    private static String decisionId(JsonNode decision) {
        return decision.get("decision_id").asText();
    }

    private static HttpResponse<String> post(int port, String path, String body) {
        return HttpCalls.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<String> get(int port, String path) {
        return HttpCalls.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET());
    }
}
