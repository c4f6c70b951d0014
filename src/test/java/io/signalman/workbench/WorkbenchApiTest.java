package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.http.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workbench's API over HTTP (issue 20): writes need the admin token in the header, drafts stay
 * inside their folder and within their size, activation needs a note, a rollback goes back through
 * the gate to an earlier activated revision, the pages carry a strict Content-Security-Policy, and
 * the live tail streams decisions filtered by pack.
 */
class WorkbenchApiTest {

    private static final String TOKEN = "workbench-api-test-token";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path dir;
    private static Server server;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.copyTree(TestBundles.FIXTURES, dir.resolve("fixtures"));
        server = Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withFixtures(dir.resolve("fixtures"))
                .withData(dir.resolve("data")).withAdminToken(TOKEN));
        base = "http://127.0.0.1:" + server.port() + "/workbench/api/";
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void pagesCarryAStrictContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create(base.replace("api/", ""))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        String csp = page.headers().firstValue("content-security-policy").orElse("");
        assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-eval") && !csp.contains("script-src 'self' 'unsafe-inline'"), csp);
        assertFalse(page.body().contains("onclick=") || page.body().contains("<script>"), "no inline script in the page");
    }

    @Test
    void writesNeedTheAdminTokenInTheHeader() throws Exception {
        assertEquals(401, send("POST", "drafts", null, null).statusCode());
        assertEquals(403, send("POST", "drafts", null, "wrong").statusCode());
        assertEquals(200, send("GET", "rules", null, null).statusCode(), "reading is open on loopback");
    }

    @Test
    void draftFileNamesCannotLeaveTheBundleFolder() throws Exception {
        String id = newDraft();
        for (String name : new String[] {"../escape.drl", "broker/../../escape.drl", "/etc/passwd.drl", "..%2Fescape.drl",
            ".hidden.drl", "broker/notes.sh"}) {
            HttpResponse<String> r = send("PUT", "drafts/" + id + "/file?path=" + java.net.URLEncoder.encode(name,
                    StandardCharsets.UTF_8), "{\"text\": \"x\"}", TOKEN);
            assertEquals(400, r.statusCode(), name + ": " + r.body());
        }
        assertFalse(Files.exists(dir.resolve("data/workbench/drafts/escape.drl")));
        assertFalse(Files.exists(dir.resolve("data/workbench/escape.drl")));
    }

    @Test
    void draftFilesAreSizeLimited() throws Exception {
        String id = newDraft();
        String big = "x".repeat(Drafts.MAX_FILE_BYTES + 1);
        HttpResponse<String> r = send("PUT", "drafts/" + id + "/file?path=broker/big.drl", "{\"text\": \"" + big + "\"}", TOKEN);
        assertEquals(413, r.statusCode(), r.body());
    }

    @Test
    void activationNeedsANoteAndRollbackGoesBackThroughTheGate() throws Exception {
        String id = newDraft();
        String before = server.engine().bundle().revision();
        String routing = Json.parse(send("GET", "drafts/" + id + "/file?path=broker/routing.drl", null, null).body()
                .getBytes(StandardCharsets.UTF_8)).get("text").asText();
        // A change no recorded decision sees: a comment, so the golden history replays unchanged.
        String edited = routing + "\n// reviewed by the analysts on Monday\n";
        assertEquals(200, send("PUT", "drafts/" + id + "/file?path=broker/routing.drl",
                Json.write(Json.object().put("text", edited)), TOKEN).statusCode());
        assertEquals(400, send("POST", "drafts/" + id + "/activate", "{}", TOKEN).statusCode(), "a note is required");
        HttpResponse<String> on = send("POST", "drafts/" + id + "/activate", "{\"note\": \"a comment for the record\"}", TOKEN);
        assertEquals(200, on.statusCode(), on.body());
        String after = server.engine().bundle().revision();
        assertFalse(before.equals(after));
        assertTrue(Files.readString(server.engine().rulesDir().resolve("broker/routing.drl")).contains("reviewed by the analysts"));

        HttpResponse<String> back = send("POST", "rollback", Json.write(Json.object().put("revision", before)
                .put("note", "back to before")), TOKEN);
        assertEquals(200, back.statusCode(), back.body());
        assertEquals(before, server.engine().bundle().revision());
        JsonNode history = Json.parse(send("GET", "activations", null, null).body().getBytes(StandardCharsets.UTF_8));
        assertEquals("rollback", history.get(0).get("kind").asText());
        assertEquals("admin", history.get(0).get("who").asText());
        assertEquals(after, history.get(0).get("old_revision").asText());
        assertEquals(2, Files.readAllLines(dir.resolve("data/activations.jsonl")).size());
    }

    @Test
    void theLiveTailStreamsDecisionsOfThePackAsked() throws Exception {
        HttpResponse<InputStream> tail = HTTP.send(HttpRequest.newBuilder(URI.create(base + "tail?pack=broker&q=tail-probe")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, tail.statusCode());
        BufferedReader in = new BufferedReader(new InputStreamReader(tail.body(), StandardCharsets.UTF_8));
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("data: ")) {
                        return line.substring(6);
                    }
                }
                return null;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Await.until(Duration.ofSeconds(10), "a decision in the tail", () -> {
            try {
                HTTP.send(HttpRequest.newBuilder(URI.create(base.replace("/workbench/api/", "/v1/broker/route")))
                        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"envelope\": {\"from_agent\": \"foresight\"}, \"type\": \"event\", \"subtype\": \"tail-probe\"}"))
                        .build(), HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return first.isDone();
        });
        JsonNode rec = Json.parse(first.join().getBytes(StandardCharsets.UTF_8));
        assertEquals("broker", rec.get("pack").asText());
        assertEquals("tail-probe", rec.get("input").get("subtype").asText());
        in.close();
    }

    private static String newDraft() throws Exception {
        HttpResponse<String> r = send("POST", "drafts", null, TOKEN);
        assertEquals(201, r.statusCode(), r.body());
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8)).get("id").asText();
    }

    private static HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("content-type", "application/json");
        }
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
