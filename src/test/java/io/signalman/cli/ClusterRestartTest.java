package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.TestPostgres;
import io.signalman.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole cluster restarts without losing state: two {@code serve --cluster} JVMs on
 * 127.0.0.1 whose state maps write through to a real PostgreSQL ({@code --state-jdbc}, schema by
 * Flyway); both are stopped, both are started again, and every instance and conversation is there,
 * and a request retried with its idempotency key gets its first answer. The control plane too: every
 * draft, activation, approval, user and audit entry made before is there after.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClusterRestartTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path dir;

    @Test
    void bothNodesStoppedAndStartedAgainServeEveryInstanceAndConversation() throws Exception {
        try (TestPostgres pg = TestPostgres.start()) {
            List<String> members = List.of("127.0.0.1:" + TestBundles.freePort(), "127.0.0.1:" + TestBundles.freePort());
            Map<String, String> before = new LinkedHashMap<>();
            HttpResponse<byte[]> first;
            ControlPlaneBefore control;
            List<ServeProcess> nodes = start(pg, members);
            try {
                // Given instances and conversations created and advanced through both nodes
                for (int i = 0; i < 6; i++) {
                    int port = nodes.get(i % 2).port();
                    assertEquals(201, send(port, "POST", "/v1/fsm/instances", "{\"id\":\"i" + i + "\",\"machine\":\"transaction\"}").statusCode());
                    assertEquals(201, send(port, "POST", "/v1/handoff/conversations", "{\"crew\":\"exam\",\"id\":\"c" + i + "\"}").statusCode());
                    if (i % 3 != 0) {
                        assertEquals(200, send(nodes.get((i + 1) % 2).port(), "POST", "/v1/fsm/instances/i" + i + "/actions",
                                "{\"action\":\"begin\"}").statusCode());
                        assertEquals(200, send(port, "POST", "/v1/handoff/conversations/c" + i + "/turns",
                                "{\"agent\":\"teacher\",\"response\":\"over to you\"}").statusCode());
                    }
                }
                // ... and an action answered for an idempotency key
                assertEquals(201, send(nodes.get(0).port(), "POST", "/v1/fsm/instances", "{\"id\":\"k1\",\"machine\":\"transaction\"}")
                        .statusCode());
                first = keyed(nodes.get(0).port(), "/v1/fsm/instances/k1/actions", "{\"action\":\"begin\"}");
                assertEquals(200, first.statusCode());
                for (int i = 0; i < 6; i++) {
                    for (String path : List.of("/v1/fsm/instances/i" + i, "/v1/handoff/conversations/c" + i)) {
                        before.put(path, send(nodes.get(0).port(), "GET", path, null).body());
                    }
                }
                before.put("/v1/fsm/instances/k1", send(nodes.get(0).port(), "GET", "/v1/fsm/instances/k1", null).body());
                // ... and the control plane's records: users, an approved and activated draft, an approved open one
                control = ControlPlaneBefore.make(nodes);
            } finally {
                // When every node is stopped (all asked at once, as an operator's stop of the whole cluster does)
                nodes.forEach(n -> n.process().destroy());
                for (ServeProcess n : nodes) {
                    n.waitFor(Duration.ofSeconds(90));
                }
            }
            // ... and the cluster is started again
            nodes = start(pg, members);
            try {
                // Then every node answers every instance and conversation as it was
                for (ServeProcess n : nodes) {
                    for (var e : before.entrySet()) {
                        HttpResponse<String> r = send(n.port(), "GET", e.getKey(), null);
                        assertEquals(200, r.statusCode(), e.getKey() + ": " + r.body());
                        assertEquals(Json.parse(e.getValue()), Json.parse(r.body()), e.getKey());
                    }
                }
                assertEquals("processing", Json.parse(before.get("/v1/fsm/instances/i1")).get("current_state").asText());
                // ... a retry of the keyed action gets its first answer byte for byte and changes nothing
                HttpResponse<byte[]> retry = keyed(nodes.get(1).port(), "/v1/fsm/instances/k1/actions", "{\"action\":\"begin\"}");
                assertEquals(200, retry.statusCode());
                assertArrayEquals(first.body(), retry.body());
                assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(null));
                assertEquals(Json.parse(before.get("/v1/fsm/instances/k1")),
                        Json.parse(send(nodes.get(0).port(), "GET", "/v1/fsm/instances/k1", null).body()));
                // ... and compare-and-set goes on from the stored versions
                assertEquals(200, send(nodes.get(1).port(), "POST", "/v1/fsm/instances/i1/actions", "{\"action\":\"abort\"}")
                        .statusCode());
                assertEquals(409, send(nodes.get(0).port(), "POST", "/v1/fsm/instances/i1/actions", "{\"action\":\"abort\"}")
                        .statusCode());
                control.checkAfter(nodes);
                // ... and the audit log, as the table holds it, is one chain that verifies
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                java.io.PrintStream print = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
                int verified = Main.run(new String[] {"audit", "verify", "--state-jdbc", pg.jdbcUrl()}, print, print,
                        Map.of("PGUSER", "signalman"));
                assertEquals(0, verified, out.toString(java.nio.charset.StandardCharsets.UTF_8));
                assertTrue(out.toString(java.nio.charset.StandardCharsets.UTF_8).contains("the chain is unbroken"),
                        out.toString(java.nio.charset.StandardCharsets.UTF_8));
            } finally {
                nodes.forEach(ServeProcess::close);
            }
        }
    }

    private List<ServeProcess> start(TestPostgres pg, List<String> members) {
        List<ServeProcess> nodes = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Path own = dir.resolve("node" + i);
            Path rules = own.resolve("rules");
            if (!Files.isDirectory(rules)) {
                TestBundles.copyOfRules(own);
            }
            nodes.add(ServeProcess.launch(own.resolve("data"), Map.of("PGUSER", "signalman", "SIGNALMAN_ADMIN_TOKEN", ADMIN),
                    "--rules", rules.toString(), "--approvals", "1", "--cluster", "--cluster-host",
                    "127.0.0.1", "--cluster-port", members.get(i).substring(members.get(i).indexOf(':') + 1), "--members",
                    String.join(",", members), "--state-jdbc", pg.jdbcUrl()));
        }
        try {
            for (ServeProcess n : nodes) {
                n.awaitServing(Duration.ofSeconds(240));
            }
        } catch (AssertionError e) {
            StringBuilder all = new StringBuilder(e.getMessage());
            nodes.forEach(n -> all.append("\n--- a node's output:\n").append(n.output()));
            nodes.forEach(ServeProcess::close);
            throw new AssertionError(all.toString(), e);
        }
        Await.until(Duration.ofSeconds(60), "both nodes to see each other", () -> nodes.stream().allMatch(n -> {
            HttpResponse<String> r = send(n.port(), "GET", "/v1/cluster", null);
            return r.statusCode() == 200 && parse(r.body()).path("members").size() == members.size()
                    && parse(r.body()).path("safe").asBoolean();
        }));
        return nodes;
    }

    private static final String ADMIN = "restart-admin-token";

    /** The control plane's records made before the whole cluster stopped, and what must hold of them after. */
    private record ControlPlaneBefore(String ana, String activated, String open, String revision, java.util.List<String> audit,
                                      String users) {

        static ControlPlaneBefore make(List<ServeProcess> nodes) throws Exception {
            int a = nodes.get(0).port();
            int b = nodes.get(1).port();
            String ana = token(a, "ana", "author");
            String bo = token(b, "bo", "approver");
            String activated = draft(a, ana, "// activated before the restart\n");
            ok(as(b, "POST", "/workbench/api/drafts/" + activated + "/approve", "{\"note\": \"fine\"}", bo), 200);
            String revision = ok(as(b, "POST", "/workbench/api/drafts/" + activated + "/activate", "{\"note\": \"before\"}",
                    ADMIN), 200).path("new_revision").asText();
            String open = draft(b, ana, "// open across the restart\n");
            ok(as(a, "POST", "/workbench/api/drafts/" + open + "/approve", "{\"note\": \"also fine\"}", bo), 200);
            java.util.List<String> audit = java.util.List.of(as(a, "GET", "/v1/audit?format=jsonl&limit=1000", null, ADMIN).body()
                    .split("\n"));
            return new ControlPlaneBefore(ana, activated, open, revision, audit, ok(as(b, "GET", "/v1/admin/users", null, ADMIN),
                    200).path("users").toString());
        }

        void checkAfter(List<ServeProcess> nodes) throws Exception {
            for (ServeProcess n : nodes) {
                int p = n.port();
                assertEquals(revision, parse(send(p, "GET", "/ready", null).body()).path("rules_revision").asText());
                assertEquals("activated", ok(as(p, "GET", "/workbench/api/drafts/" + activated, null, ADMIN), 200).path("status")
                        .asText());
                com.fasterxml.jackson.databind.JsonNode stillOpen = ok(as(p, "GET", "/workbench/api/drafts/" + open, null, ADMIN), 200);
                assertEquals(1, stillOpen.path("approvals").path("approvals").size(), stillOpen.toString());
                assertTrue(as(p, "GET", "/workbench/api/activations", null, ADMIN).body().contains(revision));
                assertEquals(users, ok(as(p, "GET", "/v1/admin/users", null, ADMIN), 200).path("users").toString());
                assertEquals(201, as(p, "POST", "/workbench/api/drafts", null, ana).statusCode(), "ana's token still works");
                String[] now = as(p, "GET", "/v1/audit?format=jsonl&limit=1000", null, ADMIN).body().split("\n");
                assertTrue(now.length >= audit.size());
                assertEquals(audit, java.util.List.of(now).subList(0, audit.size()), "every audit entry kept, in its place");
            }
        }

        private static String token(int port, String name, String role) throws Exception {
            return ok(as(port, "POST", "/v1/admin/users", "{\"name\": \"" + name + "\", \"roles\": [\"" + role + "\"]}", ADMIN),
                    201).path("token").asText();
        }

        private static String draft(int port, String token, String line) throws Exception {
            String id = ok(as(port, "POST", "/workbench/api/drafts", null, token), 201).path("id").asText();
            long version = ok(as(port, "GET", "/workbench/api/drafts/" + id, null, token), 200).path("version").asLong();
            String path = "broker/routing.drl";
            String text = ok(as(port, "GET", "/workbench/api/drafts/" + id + "/file?path=" + path, null, token), 200).path("text")
                    .asText();
            ok(as(port, "PUT", "/workbench/api/drafts/" + id + "/file?path=" + path, Json.write(Json.object()
                    .put("text", text + "\n" + line).put("version", version)), token), 200);
            return id;
        }

        private static com.fasterxml.jackson.databind.JsonNode ok(HttpResponse<String> r, int status) throws Exception {
            assertEquals(status, r.statusCode(), r.body());
            return Json.parse(r.body());
        }

        private static HttpResponse<String> as(int port, String method, String path, String body, String token) {
            HttpRequest.Builder r = ChildHttp.request(port, method, path, body, null);
            if (token != null) {
                r.header("authorization", "Bearer " + token);
            }
            return ChildHttp.send(HTTP, r, HttpResponse.BodyHandlers.ofString());
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode parse(String body) {
        try {
            return Json.parse(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A POST with idempotency key {@code retry-1}, its body read as bytes. */
    private static HttpResponse<byte[]> keyed(int port, String path, String body) {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json").header("Idempotency-Key", "retry-1")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return HTTP.send(r, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> send(int port, String method, String path, String body) {
        return ChildHttp.send(HTTP, ChildHttp.request(port, method, path, body, null), HttpResponse.BodyHandlers.ofString());
    }
}
