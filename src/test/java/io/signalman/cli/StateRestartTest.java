package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * State survives restarts of the real process: FSM instances, handoff
 * conversations and idempotency answers, after SIGTERM, and after {@code kill -9} under load with
 * {@code --fsync always}, where the decision log and the state must agree record for record.
 */
class StateRestartTest {

    @TempDir
    Path data;

    @Test
    void afterSigtermEveryInstanceConversationAndIdempotentAnswerIsThere() throws Exception {
        Map<String, String> before = new LinkedHashMap<>();
        HttpResponse<byte[]> first;
        String retried = "{\"action\": \"begin\"}";
        try (ServeProcess server = ServeProcess.start(data, Map.of())) {
            int port = server.port();
            // Given instances and conversations created and advanced
            assertEquals(201, send(port, "POST", "/v1/fsm/instances", "{\"id\":\"r1\",\"machine\":\"review-flow\"}", null).statusCode());
            assertEquals(200, send(port, "POST", "/v1/fsm/instances/r1/actions", "{\"action\":\"start\"}", null).statusCode());
            assertEquals(201, send(port, "POST", "/v1/fsm/instances", "{\"id\":\"t1\",\"machine\":\"transaction\"}", null).statusCode());
            assertEquals(201, send(port, "POST", "/v1/handoff/conversations", "{\"crew\":\"exam\",\"id\":\"c1\"}", null).statusCode());
            assertEquals(200, send(port, "POST", "/v1/handoff/conversations/c1/turns",
                    "{\"agent\":\"teacher\",\"response\":\"a question for you\"}", null).statusCode());
            assertEquals(201, send(port, "POST", "/v1/handoff/conversations", "{\"crew\":\"exam\",\"id\":\"c2\"}", null).statusCode());
            // ... and an action sent with an idempotency key
            first = send(port, "POST", "/v1/fsm/instances/t1/actions", retried, "key-1");
            assertEquals(200, first.statusCode());
            for (String path : List.of("/v1/fsm/instances/r1", "/v1/fsm/instances/t1", "/v1/handoff/conversations/c1",
                    "/v1/handoff/conversations/c2")) {
                before.put(path, body(send(port, "GET", path, null, null)));
            }
            // When the server gets SIGTERM and starts again on the same --data
            server.process().destroy();
            server.waitFor(Duration.ofSeconds(60));
        }
        try (ServeProcess server = ServeProcess.start(data, Map.of())) {
            int port = server.port();
            // Then every instance and conversation is there as it was
            for (var e : before.entrySet()) {
                assertEquals(e.getValue(), body(send(port, "GET", e.getKey(), null, null)), e.getKey());
            }
            assertEquals("running", Json.parse(before.get("/v1/fsm/instances/r1")).get("current_state").asText());
            assertEquals("student", Json.parse(before.get("/v1/handoff/conversations/c1")).get("current_agent").asText());
            // ... the retried key gets the first answer byte for byte and changes nothing
            HttpResponse<byte[]> again = send(port, "POST", "/v1/fsm/instances/t1/actions", retried, "key-1");
            assertEquals(200, again.statusCode());
            assertArrayEquals(first.body(), again.body());
            assertEquals("true", again.headers().firstValue("idempotent-replayed").orElse(""));
            assertEquals(before.get("/v1/fsm/instances/t1"), body(send(port, "GET", "/v1/fsm/instances/t1", null, null)));
            // ... and the state keeps changing from there
            assertEquals(200, send(port, "POST", "/v1/fsm/instances/t1/actions", "{\"action\":\"abort\"}", null).statusCode());
        }
    }

    @Test
    void afterKillMinus9UnderLoadWithFsyncAlwaysEveryAcknowledgedStateIsThereAndAgreesWithTheLog() throws Exception {
        int clients = 4;
        // What each client was told, in order: the idempotency key, the body sent, the answer.
        Map<String, List<String[]>> acked = new ConcurrentHashMap<>();
        Map<String, byte[]> answers = new ConcurrentHashMap<>();
        List<String> talks = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ServeProcess server = ServeProcess.start(data, Map.of(), "--fsync", "always")) {
            int port = server.port();
            for (int c = 0; c < clients; c++) {
                assertEquals(201, send(port, "POST", "/v1/fsm/instances", "{\"id\":\"load-" + c + "\",\"machine\":\"transaction\"}",
                        null).statusCode());
            }
            // Given clients that move their instances (begin, abort, begin, ...) and one that talks
            AtomicInteger ok = new AtomicInteger();
            Load load = new Load(clients + 1);
            for (int c = 0; c < clients; c++) {
                String id = "load-" + c;
                acked.put(id, new ArrayList<>());
                load.add(() -> {
                    for (int i = 0; i < 2000 && !load.stopped(); i++) {
                        String key = id + "-" + i;
                        String body = "{\"action\":\"" + (i % 2 == 0 ? "begin" : "abort") + "\"}";
                        HttpResponse<byte[]> r;
                        try {
                            r = send(port, "POST", "/v1/fsm/instances/" + id + "/actions", body, key);
                        } catch (RuntimeException e) {
                            return; // the server is gone
                        }
                        assertEquals(200, r.statusCode(), new String(r.body()));
                        acked.get(id).add(new String[] {key, body});
                        answers.put(key, r.body());
                        ok.incrementAndGet();
                    }
                });
            }
            load.add(() -> {
                // Turns, each from the agent the last one named, until a conversation ends; then a new one (a journaled create)
                String talk = null;
                String speaker = "teacher";
                int turn = 0;
                for (int i = 0; i < 2000 && !load.stopped(); i++) {
                    try {
                        if (talk == null) {
                            String id = "talk-" + i;
                            HttpResponse<byte[]> r = send(port, "POST", "/v1/handoff/conversations",
                                    "{\"crew\":\"exam\",\"id\":\"" + id + "\"}", null);
                            assertEquals(201, r.statusCode(), new String(r.body()));
                            talks.add(id);
                            acked.put(id, new ArrayList<>());
                            talk = id;
                            turn = 0;
                            speaker = "teacher";
                            continue;
                        }
                        String key = talk + "-" + turn;
                        String path = "/v1/handoff/conversations/" + talk + "/turns";
                        String body = "{\"agent\":\"" + speaker + "\",\"response\":\"turn " + turn + "\"}";
                        HttpResponse<byte[]> r = send(port, "POST", path, body, key);
                        assertEquals(200, r.statusCode(), new String(r.body()));
                        acked.get(talk).add(new String[] {key, body, path});
                        answers.put(key, r.body());
                        turn++;
                        var next = Json.parse(r.body()).path("next");
                        if ("agent".equals(next.path("type").asText())) {
                            speaker = next.path("agent").asText();
                        } else {
                            talk = null;
                        }
                    } catch (RuntimeException e) {
                        return;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            // When the server is killed without warning mid-load
            load.killMidLoad(server, Duration.ofSeconds(90), "some load to be answered", () -> ok.get() >= 200);
        }
        Map<String, List<JsonNode>> logged = stateRecords(data.resolve("decisions"));
        try (ServeProcess server = ServeProcess.start(data, Map.of(), "--fsync", "always")) {
            int port = server.port();
            for (int c = 0; c < clients; c++) {
                String id = "load-" + c;
                List<JsonNode> records = logged.getOrDefault(id, List.of());
                // Then every acknowledged action is in the log, in order (at most one unacknowledged one after them)
                List<String[]> told = acked.get(id);
                assertTrue(records.size() == told.size() || records.size() == told.size() + 1,
                        id + ": " + told.size() + " acknowledged, " + records.size() + " logged");
                // ... each logged record starts from the state the one before left (the log is whole, record for record)
                String state = "idle";
                for (JsonNode r : records) {
                    assertEquals(state, r.get("state_before").get("current_state").asText(), id + " " + r);
                    state = r.get("state_after").get("value").get("current_state").asText();
                    assertEquals(r.get("decision").get("to").asText(), state);
                }
                // ... and the state is where the log's last record left it
                assertEquals(state, Json.parse(body(send(port, "GET", "/v1/fsm/instances/" + id, null, null)))
                        .get("current_state").asText(), id);
            }
            // ... every conversation created is there, where its last logged turn left it, each turn from the one before
            for (String talk : talks) {
                List<JsonNode> records = logged.getOrDefault(talk, List.of());
                int told = acked.get(talk).size();
                assertTrue(records.size() == told || records.size() == told + 1, talk + ": " + told + " acknowledged, "
                        + records.size() + " logged");
                JsonNode state = null;
                for (JsonNode r : records) {
                    if (state != null) {
                        assertEquals(state, r.get("state_before"), talk + " " + r);
                    }
                    state = r.get("state_after").get("value");
                }
                JsonNode now = Json.parse(body(send(port, "GET", "/v1/handoff/conversations/" + talk, null, null)));
                if (state != null) {
                    assertEquals(state.get("current_agent"), now.get("current_agent"), talk);
                    assertEquals(state.get("handoff_count"), now.get("handoff_count"), talk);
                    assertEquals(state.get("status"), now.get("status"), talk);
                }
            }
            // ... and every acknowledged request retried with its key gets its first answer, byte for byte
            for (var e : acked.entrySet()) {
                for (String[] a : e.getValue()) {
                    String path = a.length > 2 ? a[2] : "/v1/fsm/instances/" + e.getKey() + "/actions";
                    HttpResponse<byte[]> again = send(port, "POST", path, a[1], a[0]);
                    assertArrayEquals(answers.get(a[0]), again.body(), a[0]);
                }
            }
        }
    }

    /** Every logged record that changed state, per state key, in log order. */
    private static Map<String, List<JsonNode>> stateRecords(Path dir) throws IOException {
        Map<String, List<JsonNode>> out = new LinkedHashMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        for (Path f : files) {
            try (BufferedReader r = Files.newBufferedReader(f)) {
                String line;
                while ((line = r.readLine()) != null) {
                    JsonNode n;
                    try {
                        n = Json.MAPPER.readTree(line);
                    } catch (IOException torn) {
                        continue;
                    }
                    if (n.hasNonNull("state_after")) {
                        out.computeIfAbsent(n.get("state_after").get("id").asText(), k -> new ArrayList<>()).add(n);
                    }
                }
            }
        }
        return out;
    }

    private static String body(HttpResponse<byte[]> r) {
        assertEquals(200, r.statusCode(), new String(r.body()));
        return new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static HttpResponse<byte[]> send(int port, String method, String path, String body, String key) {
        return ChildHttp.send(ChildHttp.request(port, method, path, body, key), HttpResponse.BodyHandlers.ofByteArray());
    }
}
