package io.signalman.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.broker.Message;
import io.signalman.broker.OrgChart;
import io.signalman.broker.Route;
import io.signalman.cli.CliRunner;
import io.signalman.engine.tables.DecisionTable;
import io.signalman.app.Server;
import io.signalman.http.TestServer;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message.Level;
import org.kie.api.builder.ReleaseId;
import org.kie.api.runtime.KieSession;
import org.drools.model.codegen.ExecutableModelProject;

/**
 * The hostile-rule corpus against every stage that reads rules: each file is refused by
 * {@code signalman check}, by the reload gate and by the workbench, at its {@code file:line},
 * and no stage runs its payload (the {@link Canary} stays untouched). Raw Drools, fed the same
 * files without Signalman in the way, runs the payloads marked live: the corpus attacks for real.
 */
class HostileRulesTest {

    private static final String TOKEN = "hostile-rules-test-token";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final TestServer server = TestServer.starting(
            dir -> Server.start(TestBundles.editableSeedServer(dir).withAdminToken(TOKEN)));

    static List<HostileRules> corpus() {
        return HostileRules.all();
    }

    @Test
    void theCorpusHasAFileForEveryKindOfHole() {
        List<String> names = corpus().stream().map(HostileRules::bundlePath).toList();
        for (String kind : List.of("escape-newline-in-consequence-comment", "escape-many-u", "escape-closes-block-comment",
                "escape-quote-in-constraint-text", "escape-quote-in-eval", "escaped-identifier", "escape-quote-in-rule-name",
                "escape-quote-in-ruleflow-group", "escape-quote-in-agenda-group", "escape-quote-in-activation-group",
                "escape-quote-in-date-effective", "escape-quote-in-date-expires", "escape-quote-in-reason",
                "table-cell-escape", "table-cell-code", "rule-name-closes-javadoc", "salience-expression", "regex-back-reference",
                "cross-product-of-reference-facts", "regex-huge-repetition", "regex-nested-repetition", "regex-on-every-combination",
                "nested-parentheses", "too-many-patterns", "table-cell-nesting", "regex-lazy-nested-repetition")) {
            assertTrue(names.stream().anyMatch(n -> n.contains(kind)), "the corpus lacks " + kind + ": " + names);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void rawDroolsRunsTheLivePayloads(HostileRules h) throws Exception {
        // Given a corpus file marked live, and Drools alone, with no Signalman check in the way
        org.junit.jupiter.api.Assumptions.assumeTrue(h.liveRaw(), "not a payload raw Drools runs");
        int before = Canary.trips();

        // When raw Drools builds it and fires it on a message
        runRaw(h);

        // Then the payload ran: the corpus is a real attack, and the refusals below are what stop it
        assertTrue(Canary.trips() > before, h + " is marked live but raw Drools did not run it");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void checkRefusesItAtItsLineAndRunsNothing(HostileRules h) throws Exception {
        // Given the shipped rules of its pack with one hostile file added
        Path bundle = Files.createTempDirectory(server.dir(), "check");
        TestBundles.copyTree(TestBundles.RULES.resolve(h.pack()), bundle.resolve(h.pack()));
        Files.writeString(bundle.resolve(h.bundlePath()), h.text());
        int before = Canary.trips();
        Canary.reset();

        // When an analyst runs signalman check on it
        CliRunner.Result r = CliRunner.run("check", bundle.toString());

        // Then it is refused at the file and line the corpus names, and nothing of it ran
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue((r.out() + r.err()).contains(h.bundlePath() + ":" + h.line() + ":"), () -> "expected a refusal at "
                + h.bundlePath() + ":" + h.line() + ", got\n" + r.out() + r.err());
        assertEquals(before, Canary.trips(), "a stage ran the payload");
        assertFalse(Canary.fileLeft());
    }

    @Test
    void theReloadGateAndTheWorkbenchRefuseEveryFileAndRunNothing() throws Exception {
        int before = Canary.trips();
        Canary.reset();
        String revision = ready().get("rules_revision").asText();
        for (HostileRules h : corpus()) {
            // The reload gate: the file dropped into the live rules, then a reload
            Path target = server.server().engine().rulesDir().resolve(h.bundlePath());
            Files.writeString(target, h.text());
            HttpResponse<String> reload = send("POST", "/v1/rules/reload", "{}");
            Files.delete(target);
            assertEquals(422, reload.statusCode(), h + ": " + reload.body());
            assertTrue(locatedAt(Json.parse(reload.body().getBytes(StandardCharsets.UTF_8)), h), h + ": " + reload.body());
            assertEquals(revision, ready().get("rules_revision").asText(), h + ": the previous rules keep serving");

            // The workbench: a draft holding the file, saved, then tried, replayed and activated
            String draft = Json.parse(send("POST", "/workbench/api/drafts", null).body().getBytes(StandardCharsets.UTF_8))
                    .get("id").asText();
            HttpResponse<String> saved = send("PUT", "/workbench/api/drafts/" + draft + "/file?path=" + h.bundlePath(),
                    Json.write(Json.object().put("text", h.text()).put("version", 1)));
            assertEquals(200, saved.statusCode(), h + ": " + saved.body());
            assertTrue(locatedAt(Json.parse(saved.body().getBytes(StandardCharsets.UTF_8)), h), h + ": " + saved.body());
            assertEquals(422, send("POST", "/workbench/api/drafts/" + draft + "/impact", "{}").statusCode(), h.toString());
            assertEquals(422, send("POST", "/workbench/api/drafts/" + draft + "/activate", "{\"note\": \"hostile\"}")
                    .statusCode(), h.toString());
            assertEquals(before, Canary.trips(), h + ": a stage ran the payload");
            // Discarded, so the corpus can outgrow the workbench's bound on open drafts
            assertEquals(200, send("DELETE", "/workbench/api/drafts/" + draft, null).statusCode(), h.toString());
        }
        // And live decisions go on with the rules that were there before
        HttpResponse<String> decided = send("POST", "/v1/broker/route", "{\"envelope\": {\"from_agent\": \"foresight\", "
                + "\"priority\": \"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\"}");
        assertEquals(200, decided.statusCode(), decided.body());
        assertEquals(before, Canary.trips());
        assertFalse(Canary.fileLeft());
    }

    /** Whether an answer's errors (anywhere in it) name the corpus file at its line. */
    private static boolean locatedAt(JsonNode answer, HostileRules h) {
        for (JsonNode e : answer.findValues("file")) {
            if (e.isTextual() && e.asText().equals(h.bundlePath())) {
                for (JsonNode parent : answer.findParents("file")) {
                    if (parent.path("file").asText().equals(h.bundlePath()) && parent.path("line").asInt() == h.line()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static JsonNode ready() throws Exception {
        return Json.parse(send("GET", "/ready", null).body().getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(java.time.Duration.ofSeconds(120)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("content-type", "application/json");
        }
        return HTTP.send(b.header("authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Builds and fires the file with Drools alone: what an engine without Signalman's checks would do. */
    private static void runRaw(HostileRules h) throws Exception {
        String drl = h.file().toString().endsWith(".csv")
                ? DecisionTable.read(h.bundlePath(), Files.readAllBytes(h.file())).drl() : h.text();
        KieServices ks = KieServices.Factory.get();
        ReleaseId id = ks.newReleaseId("io.signalman.hostile", "raw", "1.0." + System.nanoTime());
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        kfs.write("src/main/resources/raw/" + h.file().getFileName() + ".drl", drl);
        KieBuilder b = ks.newKieBuilder(kfs).buildAll(ExecutableModelProject.class);
        try {
            if (!b.getResults().getMessages(Level.ERROR).isEmpty()) {
                return; // a payload that runs while building has run by now
            }
            KieSession s = ks.newKieContainer(id).newKieSession();
            try {
                if (h.pack().equals("broker")) {
                    s.setGlobal("decide", new Route());
                    s.insert(new Message("m1", "foresight", "normal", "event", "trade.executed"));
                    s.insert(new OrgChart(List.of()));
                    s.getAgenda().getAgendaGroup("route").setFocus();
                } else {
                    s.setGlobal("decide", new io.signalman.dispatch.Dispatch());
                    s.insert(new io.signalman.dispatch.Features(500, 0, 0, 0, false));
                    s.getAgenda().getAgendaGroup("score").setFocus();
                }
                s.fireAllRules();
            } finally {
                s.dispose();
            }
        } finally {
            ks.getRepository().removeKieModule(id);
        }
    }
}
