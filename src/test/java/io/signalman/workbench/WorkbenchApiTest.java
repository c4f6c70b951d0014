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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workbench's API over HTTP (issue 20): writes need the admin token in the header, drafts stay
 * inside their folder and within their size, activation needs a note, a rollback goes back through
 * the gate to an earlier activated revision, the pages carry a strict Content-Security-Policy, and
 * the live tail streams decisions filtered by pack, and the scenarios and decision tables of the
 * live rules or of a draft are shown as the CLI's test and check see them.
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
        useModelWeightsTable(rules);
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
                    StandardCharsets.UTF_8), "{\"text\": \"x\", \"version\": 1}", TOKEN);
            assertEquals(400, r.statusCode(), name + ": " + r.body());
        }
        assertFalse(Files.exists(dir.resolve("data/workbench/drafts/escape.drl")));
        assertFalse(Files.exists(dir.resolve("data/workbench/escape.drl")));
    }

    @Test
    void draftFilesAreSizeLimited() throws Exception {
        String id = newDraft();
        String big = "x".repeat(Drafts.MAX_FILE_BYTES + 1);
        HttpResponse<String> r = send("PUT", "drafts/" + id + "/file?path=broker/big.drl", "{\"version\": 1, \"text\": \"" + big + "\"}", TOKEN);
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
        assertEquals(200, save(id, "broker/routing.drl", edited).statusCode());
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

    @Test
    void theLiveRulesScenariosAllPassWithTheirCount() throws Exception {
        long firedBefore = timesFired("broker", "critical messages go to openclaw and knox");

        // When the scenarios of the live rules are run
        HttpResponse<String> r = send("GET", "scenarios", null, null);

        // Then every scenario beside the rules ran, and passed
        assertEquals(200, r.statusCode(), r.body());
        JsonNode report = json(r);
        int count = scenarioCount(server.engine().rulesDir());
        assertTrue(count > 50, "the seed bundle's scenarios: " + count);
        assertTrue(report.get("passed").asBoolean(), r.body());
        assertEquals(count, report.get("scenarios").asInt());
        assertEquals(count, report.get("results").size());
        assertEquals(0, report.get("failed").asInt());
        assertEquals(server.engine().bundle().revision(), report.get("revision").asText());
        // ... and, not being live decisions, they leave the live rules' fired counts alone
        assertEquals(firedBefore, timesFired("broker", "critical messages go to openclaw and knox"));
    }

    private static long timesFired(String pack, String rule) throws Exception {
        for (JsonNode p : json(send("GET", "rules", null, null)).get("packs")) {
            for (JsonNode x : p.get("rules")) {
                if (p.get("name").asText().equals(pack) && x.get("name").asText().equals(rule)) {
                    return x.get("fired").asLong();
                }
            }
        }
        throw new AssertionError("no rule " + pack + "/" + rule);
    }

    @Test
    void aDraftWhoseScenarioExpectsOtherwiseShowsItFailingWithTheMismatch() throws Exception {
        // Given a draft where one scenario expects a critical trade to go to the CFO instead of knox
        String id = newDraft();
        String path = "broker/scenarios/routing.yaml";
        String yaml = fileOf(id, path);
        String wrong = yaml.replaceFirst("primary_recipients: \\[openclaw, knox\\]", "primary_recipients: [openclaw, cfo]");
        assertFalse(wrong.equals(yaml));
        assertEquals(200, save(id, path, wrong).statusCode());

        // When the draft's scenarios are run
        HttpResponse<String> r = send("GET", "scenarios?draft=" + id, null, null);

        // Then that scenario, and only it, fails at its file and line, with expected vs actual
        assertEquals(200, r.statusCode(), r.body());
        JsonNode report = json(r);
        assertFalse(report.get("passed").asBoolean());
        assertEquals(1, report.get("failed").asInt());
        JsonNode failed = null;
        for (JsonNode x : report.get("results")) {
            if (!x.get("passed").asBoolean()) {
                failed = x;
            }
        }
        assertEquals("a critical trade goes to openclaw and knox, and mission control and sentinel hear of it",
                failed.get("name").asText());
        assertEquals(path, failed.get("file").asText());
        assertEquals(lineOf(yaml, "- name: a critical trade goes to openclaw and knox"), failed.get("line").asInt());
        JsonNode m = failed.get("mismatches").get(0);
        assertEquals("primary_recipients", m.get("field").asText());
        assertEquals("[\"openclaw\",\"cfo\"]", Json.write(m.get("expected")));
        assertEquals("[\"openclaw\",\"knox\"]", Json.write(m.get("actual")));
        assertEquals(1, failed.get("mismatches").size(), failed.toString());

        // ... and the live rules' scenarios still pass
        assertTrue(json(send("GET", "scenarios", null, null)).get("passed").asBoolean());
    }

    @Test
    void theModelTableIsShownWithTheColumnsAndRowsOfItsCsv() throws Exception {
        HttpResponse<String> r = send("GET", "tables", null, null);

        assertEquals(200, r.statusCode(), r.body());
        JsonNode files = json(r).get("files");
        assertEquals(1, files.size(), r.body());
        JsonNode file = files.get(0);
        assertEquals("dispatch/model.csv", file.get("path").asText());
        assertEquals(0, file.get("errors").size());
        JsonNode t = file.get("tables").get(0);
        assertEquals("model routing weights", t.get("name").asText());
        assertEquals(5, t.get("line").asInt());
        assertEquals(List.of("rule", "group", "salience", "reason", "attachments", "tokens above", "tokens at most",
                "code blocks above", "tool calls above", "tool calls at most", "history above", "weight"), texts(t.get("columns"), "label"));
        assertEquals(List.of("NAME", "AGENDA-GROUP", "PRIORITY", "METADATA", "CONDITION", "CONDITION", "CONDITION", "CONDITION",
                "CONDITION", "CONDITION", "CONDITION", "ACTION"), texts(t.get("columns"), "kind"));
        assertEquals("tokenEstimate > $param", t.get("columns").get(5).get("code").asText());
        JsonNode rows = t.get("rows");
        assertEquals(7, rows.size());
        assertEquals(10, rows.get(0).get("line").asInt());
        assertEquals(List.of("attachments need the heavy model", "score", "700",
                "the message carries an image, audio or video: only the heavy model reads them", "true", "", "", "", "", "", "", "1.00"),
                texts(rows.get(0).get("cells"), null));
        assertEquals(16, rows.get(6).get("line").asInt());
        assertEquals(List.of("deep conversations lean a little heavy", "score", "300",
                "more than 10 turns of history: long sessions carry implicit complexity", "", "", "", "", "", "", "10", "0.10"),
                texts(rows.get(6).get("cells"), null));
    }

    @Test
    void aBrokenTableInADraftIsLocatedAtItsLineAndItsScenariosDoNotRun() throws Exception {
        // Given a draft whose model table has a salience that is not a number on its line 12
        String id = newDraft();
        String csv = fileOf(id, "dispatch/model.csv");
        String broken = csv.replace("medium messages lean a little heavy,score,590,", "medium messages lean a little heavy,score,59O,");
        assertFalse(broken.equals(csv));
        assertEquals(200, save(id, "dispatch/model.csv", broken).statusCode());

        // Then the draft's tables show the error at that line
        HttpResponse<String> tables = send("GET", "tables?draft=" + id, null, null);
        assertEquals(200, tables.statusCode(), tables.body());
        JsonNode file = json(tables).get("files").get(0);
        assertEquals("dispatch/model.csv", file.get("path").asText());
        JsonNode error = file.get("errors").get(0);
        assertEquals(lineOf(broken, ",59O,"), error.get("line").asInt(), error.toString());
        assertEquals(12, error.get("line").asInt());
        assertTrue(error.get("message").asText().startsWith("this decision table cannot be read"), error.toString());

        // ... and its scenarios are refused with the same located error, as any draft that does not compile
        HttpResponse<String> scenarios = send("GET", "scenarios?draft=" + id, null, null);
        assertEquals(422, scenarios.statusCode(), scenarios.body());
        JsonNode refused = json(scenarios);
        assertEquals("draft_does_not_compile", refused.get("error").asText());
        assertEquals(error, refused.get("details").get("errors").get(0));
    }

    /** The seed's model-routing weights as the decision table the live rules ship (the same rules), so there is a table to show. */
    static void useModelWeightsTable(Path rules) throws java.io.IOException {
        Files.delete(rules.resolve("dispatch/model.drl"));
        Files.copy(Path.of("src/test/resources/workbench/seed-model-weights.csv"), rules.resolve("dispatch/model.csv"));
    }

    /** How many scenarios the YAML files under {@code rules/<pack>/scenarios/} hold, each file read as a plain list. */
    static int scenarioCount(Path rules) throws java.io.IOException {
        com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        int n = 0;
        try (java.util.stream.Stream<Path> walk = Files.walk(rules)) {
            for (Path p : walk.filter(f -> f.getParent().getFileName().toString().equals("scenarios")
                    && f.toString().endsWith(".yaml")).toList()) {
                n += yaml.readTree(p.toFile()).size();
            }
        }
        return n;
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(x -> out.add(field == null ? x.asText() : x.get(field).asText()));
        return out;
    }

    private static int lineOf(String text, String part) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line with " + part);
    }

    private static String fileOf(String draft, String path) throws Exception {
        HttpResponse<String> r = send("GET", "drafts/" + draft + "/file?path=" + path, null, null);
        assertEquals(200, r.statusCode(), r.body());
        return json(r).get("text").asText();
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8));
    }

    /** Saves a file of a draft at the draft's current version, as the page does. */
    static HttpResponse<String> save(String id, String path, String text) throws Exception {
        long version = json(send("GET", "drafts/" + id, null, null)).get("version").asLong();
        return send("PUT", "drafts/" + id + "/file?path=" + path, Json.write(Json.object().put("text", text).put("version", version)),
                TOKEN);
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
