package io.signalman.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hot reload with its gate: a changed rule goes live when it compiles and the golden
 * history accepts it, and is refused, with its reasons, when it does not compile, changes a
 * recorded decision that was not accepted, fails a scenario, breaks an invariant, or strands live
 * FSM state.
 */
class ReloadTest {

    private static final String TOKEN = "reload-test-token";
    private static final String SCENARIOS = "broker/scenarios/routing.yaml";
    /** What the broker's scenario for a new tool expects, in the seed bundle. */
    private static final String TOOL_SCENARIO = "primary_recipients: [sr-director-tooling]";

    @TempDir
    Path tmp;
    private Path rules;
    private Path fixtures;
    private Server server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws Exception {
        rules = TestBundles.copyOfRules(tmp);
        fixtures = tmp.resolve("replay-fixtures");
        TestBundles.copyTree(TestBundles.FIXTURES, fixtures);
        server = Server.start(TestBundles.seedServer().withRules(rules).withFixtures(fixtures)
                .withData(tmp.resolve("data")).withAdminToken(TOKEN));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aGoodChangeWhoseFixturesWereAcceptedGoesLiveWithinSecondsWithoutARestart() throws Exception {
        String before = revision();
        TestBundles.edit(rules.resolve("broker/routing.drl"), TestBundles.TOOL_ROUTE, TestBundles.TOOL_ROUTE_WITH_TOOL_SMITH);
        TestBundles.edit(rules.resolve(SCENARIOS), TOOL_SCENARIO, "primary_recipients: [sr-director-tooling, tool-smith]");
        assertEquals(0, CliRunner.run("replay", "--rules", rules.toString(), "--accept", fixtures.toString()).code());

        Await.until(Duration.ofSeconds(20), "the watcher to load the new rules", () -> !revision().equals(before));

        JsonNode d = route("{\"envelope\":{\"from_agent\":\"tool-smith\",\"priority\":\"normal\"},\"type\":\"event\",\"subtype\":\"tool.installed\"}");
        assertEquals(Json.parse("[\"sr-director-tooling\",\"tool-smith\"]"), d.get("primary_recipients"));
        assertEquals(revision(), d.get("rules_revision").asText());
    }

    @Test
    void badDrlIsRefusedWithFileAndLineAndTheOldRulesKeepServing() throws Exception {
        String before = revision();
        TestBundles.edit(rules.resolve("broker/routing.drl"), TestBundles.TOOL_ROUTE, "decide.primry(\"sr-director-tooling\")");

        HttpResponse<String> res = reload(TOKEN);

        assertEquals(422, res.statusCode());
        JsonNode error = Json.parse(res.body()).get("details").get("errors").get(0);
        assertEquals("broker/routing.drl", error.get("file").asText());
        assertTrue(error.get("line").asInt() > 0);
        assertEquals(before, revision());
        JsonNode refused = get("/v1/rules").get("last_refused");
        assertEquals("broker/routing.drl", refused.get("errors").get(0).get("file").asText());
    }

    @Test
    void aRuleThatRunsCodeIsRefusedAtItsLineAndNeverRuns() throws Exception {
        // Given a consequence that reads /etc/hostname and prints it
        String before = revision();
        Path drl = rules.resolve("broker/routing.drl");
        TestBundles.edit(drl, TestBundles.TOOL_ROUTE + ".priority(\"low\");", TestBundles.TOOL_ROUTE + ".priority(\"low\");\n    System.out.println(java.nio.file.Files.readString("
                + "java.nio.file.Path.of(\"/etc/hostname\")));");
        int line = java.nio.file.Files.readAllLines(drl).indexOf(
                "    System.out.println(java.nio.file.Files.readString(java.nio.file.Path.of(\"/etc/hostname\")));") + 1;

        // When the server is asked to reload
        HttpResponse<String> res = reload(TOKEN);

        // Then it is refused at that line, and the old rules keep serving
        assertEquals(422, res.statusCode(), res.body());
        JsonNode error = Json.parse(res.body()).get("details").get("errors").get(0);
        assertEquals("broker/routing.drl", error.get("file").asText());
        assertEquals(line, error.get("line").asInt(), res.body());
        assertTrue(error.get("message").asText().contains("reaches outside the rule"), res.body());
        assertEquals(before, revision());
    }

    @Test
    void aChangedDecisionThatWasNotAcceptedIsRefusedNamingTheRecordsItChanges() throws Exception {
        String before = revision();
        TestBundles.edit(rules.resolve("broker/routing.drl"), TestBundles.TOOL_ROUTE, TestBundles.TOOL_ROUTE_WITH_TOOL_SMITH);

        HttpResponse<String> res = reload(TOKEN);

        assertEquals(422, res.statusCode());
        JsonNode errors = Json.parse(res.body()).get("details").get("errors");
        assertTrue(errors.get(0).get("file").asText().endsWith("broker/history.jsonl"), errors.toString());
        assertTrue(errors.get(0).get("message").asText().contains("primary_recipients"), errors.toString());
        assertEquals(before, revision());
    }

    @Test
    void aFailingScenarioRefusesTheReloadNamingTheScenarioItsFileAndWhatCameOut() throws Exception {
        String before = revision();
        TestBundles.edit(rules.resolve(SCENARIOS), TOOL_SCENARIO, "primary_recipients: [tool-smith]");

        HttpResponse<String> res = reload(TOKEN);

        assertEquals(422, res.statusCode());
        JsonNode errors = Json.parse(res.body()).get("details").get("errors");
        assertEquals(1, errors.size(), errors.toString());
        assertEquals(SCENARIOS, errors.get(0).get("file").asText());
        assertTrue(errors.get(0).get("line").asInt() > 1, errors.toString());
        assertEquals("scenario \"a newly installed tool goes to the Sr. Director of Tooling at low priority\" fails:"
                + " primary_recipients: expected [\"tool-smith\"], got [\"sr-director-tooling\"]", errors.get(0).get("message").asText());
        assertEquals(before, revision());
    }

    @Test
    void aChangeThatBreaksAnInvariantIsRefusedWithTheInvariantAndAnExample() throws Exception {
        TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"openclaw\", \"knox\")", "decide.primary(\"openclaw\")");

        HttpResponse<String> res = reload(TOKEN);

        assertEquals(422, res.statusCode());
        assertTrue(res.body().contains("invariant \\\"critical messages always reach openclaw and knox\\\" breaks"), res.body());
        assertTrue(res.body().contains("\\\"priority\\\":\\\"critical\\\""), "the refusal shows an input that breaks it");
    }

    @Test
    void aBundleThatNoLongerDefinesTheStateOfALiveInstanceIsRefused() throws Exception {
        post("/v1/fsm/instances", "{\"id\":\"live-1\",\"machine\":\"transaction\"}", null);
        post("/v1/fsm/instances/live-1/actions", "{\"action\":\"begin\"}", null);
        for (String f : new String[] {"fsm/machines.json", "fsm/transaction.drl", "fsm/transaction.routes.drl"}) {
            Path p = rules.resolve(f);
            Files.writeString(p, Files.readString(p).replace("processing", "working"));
        }

        HttpResponse<String> res = reload(TOKEN);

        assertEquals(422, res.statusCode());
        assertTrue(res.body().contains("live FSM instance \\\"live-1\\\" is in state \\\"processing\\\""), res.body());
        assertEquals("processing", get("/v1/fsm/instances/live-1").get("current_state").asText());
    }

    @Test
    void reloadIsAnAdminActAndAnUnchangedBundleReloadsCleanly() throws Exception {
        assertEquals(401, reload(null).statusCode());
        assertEquals(403, reload("wrong").statusCode());
        HttpResponse<String> ok = reload(TOKEN);
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(revision(), Json.parse(ok.body()).get("revision").asText());
        assertNotEquals(null, Json.parse(ok.body()).get("previous_revision"));
    }

    private String revision() {
        try {
            return get("/ready").get("rules_revision").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode route(String body) throws Exception {
        return Json.parse(post("/v1/broker/route", body, null).body());
    }

    private JsonNode get(String path) throws Exception {
        return Json.parse(http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private HttpResponse<String> reload(String token) throws Exception {
        return post("/v1/rules/reload", "", token);
    }

    private HttpResponse<String> post(String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }
}
