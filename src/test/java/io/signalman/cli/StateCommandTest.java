package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.TestPostgres;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code signalman state export|import}: a node's state exported as JSON lines, imported
 * into another node's data folder, where a server serves it; and through PostgreSQL, the way state
 * moves from a single node to a cluster.
 */
class StateCommandTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    @Test
    void exportedStateImportedIntoAnotherDataFolderIsServedThere() throws Exception {
        // Given a node that created and moved an instance and a conversation, then stopped
        try (Server a = start(tmp.resolve("a"))) {
            assertEquals(201, send(a, "POST", "/v1/fsm/instances", "{\"id\": \"r1\", \"machine\": \"review-flow\"}").statusCode());
            assertEquals(200, send(a, "POST", "/v1/fsm/instances/r1/actions", "{\"action\": \"start\"}").statusCode());
            assertEquals(201, send(a, "POST", "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"c1\"}").statusCode());
        }
        // When its state is exported
        CliRunner.Result export = CliRunner.run("state", "export", "--data", tmp.resolve("a").toString());
        assertEquals(0, export.code(), export.err());
        Map<String, JsonNode> lines = byId(export.out());
        assertEquals("running", lines.get("fsm/r1").get("value").get("current_state").asText());
        assertEquals("teacher", lines.get("handoff/c1").get("value").get("current_agent").asText());

        // ... and imported into another data folder
        Path file = tmp.resolve("states.jsonl");
        Files.writeString(file, export.out());
        CliRunner.Result imported = CliRunner.run("state", "import", "--data", tmp.resolve("b").toString(), file.toString());
        assertEquals(0, imported.code(), imported.err());
        assertTrue(imported.err().contains("2 entries imported"), imported.err());

        // Then a server on that folder serves them
        try (Server b = start(tmp.resolve("b"))) {
            assertEquals("running", Json.parse(send(b, "GET", "/v1/fsm/instances/r1", null).body()).get("current_state").asText());
            assertEquals("teacher", Json.parse(send(b, "GET", "/v1/handoff/conversations/c1", null).body())
                    .get("current_agent").asText());
        }
    }

    @Test
    void stateMovesIntoPostgresAndBackUnchanged() throws Exception {
        String lines = "{\"store\":\"fsm\",\"id\":\"r1\",\"version\":4,\"value\":{\"type\":\"fsm\",\"machine\":\"review-flow\","
                + "\"current_state\":\"running\"}}\n";
        Path file = tmp.resolve("states.jsonl");
        Files.writeString(file, lines);
        try (TestPostgres pg = TestPostgres.start()) {
            CliRunner.Result in = CliRunner.run("state", "import", "--state-jdbc", pg.jdbcUrl() + "?user=signalman", file.toString());
            assertEquals(0, in.code(), in.err());
            CliRunner.Result out = CliRunner.run("state", "export", "--state-jdbc", pg.jdbcUrl() + "?user=signalman");
            assertEquals(0, out.code(), out.err());
            JsonNode back = byId(out.out()).get("fsm/r1");
            assertEquals(4, back.get("version").asLong());
            assertEquals(Json.parse(lines).get("value"), back.get("value"));
            // ... and a value its store cannot read is refused, naming the line
            Files.writeString(file, "{\"store\":\"fsm\",\"id\":\"r2\",\"version\":1,\"value\":{\"type\":\"fsm\"}}\n");
            CliRunner.Result bad = CliRunner.run("state", "import", "--state-jdbc", pg.jdbcUrl() + "?user=signalman", file.toString());
            assertEquals(1, bad.code());
            assertTrue(bad.err().contains("line 1"), bad.err());
        }
    }

    private static Map<String, JsonNode> byId(String jsonl) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        List<String> rows = new ArrayList<>(jsonl.lines().filter(l -> !l.isBlank()).toList());
        for (String row : rows) {
            JsonNode n = Json.parse(row);
            out.put(n.get("store").asText() + "/" + n.get("id").asText(), n);
        }
        return out;
    }

    private static Server start(Path data) throws Exception {
        return Server.start(ServerConfig.defaults().withPort(0).withRules(TestBundles.RULES).withFixtures(TestBundles.FIXTURES)
                .withData(data));
    }

    private static HttpResponse<String> send(Server s, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                .header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
