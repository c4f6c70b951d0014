package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.json.Json;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the real process: an idempotency answer never becomes durable before the
 * change it answers. A keyed FSM action is sent to {@code serve} while a test seam holds one of
 * its two writes, and the process is killed with {@code kill -9} right there:
 * <ul>
 *   <li>between the change's write and the answer's: after a restart the change is there and the
 *       answer is not, so the retry runs again (and finds the instance moved on: 409);</li>
 *   <li>before the change's write: after a restart neither is there, and the retry runs, once.</li>
 * </ul>
 * (Three starts, chained: the first restart is also the second kill's server.) {@code AnswerOrderTest}
 * sees the same order at the disk, in process.
 */
class AnswerOrderProcessTest {

    private static final String START = "{\"action\": \"start\"}";

    @TempDir
    Path dir;

    @Test
    void killedBetweenTheTwoWritesTheChangeSurvivesAloneAndKilledBeforeTheChangeNeitherDoes() throws Exception {
        Path data = dir.resolve("data");
        // Given an instance, and a keyed action whose answer's write is held once its change is written, killed there
        try (ServeProcess server = holding(data, "answers-")) {
            killHolding(server, "r1", "k1", "answers-");
        }
        // Then after a restart the change is there, and the answer is not: the retry runs again (and finds it moved: 409)
        try (ServeProcess server = holding(data, "decisions-")) {
            int port = server.port();
            assertEquals("running", Json.parse(send(port, "GET", "/v1/fsm/instances/r1", null, null).body())
                    .get("current_state").asText());
            HttpResponse<String> retry = send(port, "POST", "/v1/fsm/instances/r1/actions", START, "k1");
            assertEquals(409, retry.statusCode(), retry.body());
            assertEquals("invalid_transition", Json.parse(retry.body()).get("error").asText());
            assertFalse(retry.headers().firstValue("idempotent-replayed").isPresent(), "an answer survived: " + retry.body());

            // Given a second instance, and a keyed action whose decision-log record's write is held, killed there
            killHolding(server, "r2", "k2", "decisions-");
        }
        // Then after a restart neither the change nor its answer is there: the retry runs, and only once
        try (ServeProcess server = ServeProcess.start(data, Map.of())) {
            int port = server.port();
            assertEquals("idle", Json.parse(send(port, "GET", "/v1/fsm/instances/r2", null, null).body())
                    .get("current_state").asText());
            HttpResponse<String> retry = send(port, "POST", "/v1/fsm/instances/r2/actions", START, "k2");
            assertEquals(200, retry.statusCode(), retry.body());
            assertFalse(retry.headers().firstValue("idempotent-replayed").isPresent(), "an answer survived its change");
            HttpResponse<String> again = send(port, "POST", "/v1/fsm/instances/r2/actions", START, "k2");
            assertEquals(retry.body(), again.body());
            assertEquals("true", again.headers().firstValue("idempotent-replayed").orElse(""));
        }
    }

    /** {@code serve} whose writes to files named {@code prefix}* wait while the hold file exists (it does not yet). */
    private ServeProcess holding(Path data, String prefix) {
        return ServeProcess.launch(data, Map.of(), List.of("-Dsignalman.test.hold-writes=" + prefix,
                "-Dsignalman.test.hold-while=" + dir.resolve("hold"))).awaitServing(Duration.ofSeconds(120));
    }

    /** Creates {@code id}, sends keyed action {@code key} while writes to {@code prefix}* are held, kills -9 there. */
    private void killHolding(ServeProcess server, String id, String key, String prefix) throws Exception {
        Path hold = dir.resolve("hold");
        try {
            int port = server.port();
            assertEquals(201, send(port, "POST", "/v1/fsm/instances", "{\"id\": \"" + id + "\", \"machine\": \"review-flow\"}",
                    null).statusCode());
            Files.createFile(hold);
            CompletableFuture<HttpResponse<String>> action = CompletableFuture.supplyAsync(() -> send(port, "POST",
                    "/v1/fsm/instances/" + id + "/actions", START, key));
            Await.until(Duration.ofSeconds(30), "the write to " + prefix + "* to be held", () -> server.printed(
                    "holding a write to " + prefix));
            assertFalse(action.isDone(), "the client was answered while a write of its request was held");
            server.kill();
            assertTrue(action.handle((r, e) -> e != null).get(), "the client got an answer from a killed server");
        } finally {
            Files.deleteIfExists(hold);
        }
    }

    private static HttpResponse<String> send(int port, String method, String path, String body, String key) {
        return ChildHttp.send(ChildHttp.request(port, method, path, body, key).timeout(Duration.ofSeconds(60)),
                HttpResponse.BodyHandlers.ofString());
    }
}
