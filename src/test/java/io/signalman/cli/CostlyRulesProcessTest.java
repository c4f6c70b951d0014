package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules that cost without bound against a real {@code signalman serve} (its own JVM, a 256 MB heap
 * and {@code -XX:+ExitOnOutOfMemoryError}, as {@code bin/signalman} runs it): each class of the
 * attack (issue 38) through the reload gate, a draft saved with a scenario that
 * runs it, Try, opening the draft again after a restart, and a live request; and, with the rule
 * budgets loosened so that the cross product goes live, the watchdog and the quarantine. After
 * every step the server answers {@code /health} and ordinary routes.
 */
class CostlyRulesProcessTest {

    private static final String TOKEN = "costly-rules-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    /**
     * A corpus file for each class of the attack that the text could hold (the cross product, by one
     * file for the live request, the draft and the poison pill; the repetition; the nesting). Their
     * variants are refused at every stage by HostileRulesTest, in process.
     */
    private static final List<String> COSTLY = List.of("cross-product-of-reference-facts.drl", "regex-huge-repetition.drl",
            "nested-parentheses.drl");
    private static final String SCENARIO = """
            - name: a message the costly rule would decide
              input:
                envelope: {from_agent: foresight, priority: high}
                type: event
                subtype: costly.join
              expect:
                primary_recipients: [openclaw]
            """;

    @TempDir
    Path dir;

    private int port;

    @Test
    void noCostlyRuleEndsOrStallsTheServerAtAnyStage() throws Exception {
        // Given a server on an editable copy of the rules, with the default budgets
        Path rules = dir.resolve("rules");
        TestBundles.copyTree(TestBundles.RULES, rules);
        List<String> drafts = new ArrayList<>();
        try (ServeProcess server = start(rules)) {
            for (String name : COSTLY) {
                String text = Files.readString(Path.of("src/test/resources/hostile-rules/broker", name));
                String path = "broker/" + name;

                // (check refuses it at its file:line: HostileRulesTest, for every corpus file)
                // the reload gate refuses it and the old rules serve on
                Files.writeString(rules.resolve(path), text);
                HttpResponse<String> reload = send("POST", "/v1/rules/reload", "{}");
                Files.delete(rules.resolve(path));
                assertEquals(422, reload.statusCode(), name + ": " + reload.body());

                // a draft saved with it and a scenario that runs it answers, and Try answers
                String draft = json(send("POST", "/workbench/api/drafts", null)).get("id").asText();
                drafts.add(draft);
                assertEquals(200, save(draft, path, text).statusCode(), name);
                assertEquals(200, save(draft, "broker/scenarios/costly.yaml", SCENARIO).statusCode(), name);
                HttpResponse<String> tried = send("POST", "/workbench/api/try", Json.write(Json.object().put("pack", "broker")
                        .put("draft", draft).set("input", Json.parse(costly("high").getBytes(StandardCharsets.UTF_8)))));
                assertEquals(200, tried.statusCode(), name + ": " + tried.body());
                assertTrue(json(tried).has("draft_error"), name + ": the draft decides nothing: " + tried.body());

                // a live request its subtype would have matched is decided by the rules that serve
                assertEquals(200, send("POST", "/v1/broker/route", costly("high")).statusCode(), name);
                assertServes(server, name);
            }
        }

        // When the server restarts on the same data, with the drafts in it (the poison-pill attack)
        try (ServeProcess server = start(rules)) {
            // Then opening each draft (which runs its check) answers, and the server serves on
            for (String draft : drafts) {
                assertEquals(200, send("GET", "/workbench/api/drafts/" + draft, null).statusCode(), draft);
            }
            assertServes(server, "after reopening every draft");
        }
    }

    @Test
    void aCrossProductThatGoesLiveIsStoppedAndQuarantined() throws Exception {
        // Given rule budgets loosened so far that a cross product of org-chart cards is admitted (as an
        // operator could), a decision budget of 32 MB, and quarantine after two breaches; the deadline is
        // long (10 s), so that on a loaded machine the budget, not the deadline, is what stops the join
        Path rules = dir.resolve("rules");
        TestBundles.copyTree(TestBundles.RULES, rules);
        try (ServeProcess server = start(rules, "--max-rule-combinations", "1000000000000000", "--max-rule-steps",
                "1000000000000000000", "--max-pack-steps", "1000000000000000000", "--max-decision-mb", "32", "--quarantine-after", "2", "--deadline-ms", "10000")) {
            String good = ready().get("rules_revision").asText();

            // and, activated through a draft, a rule whose six card patterns join only for a high priority
            // (its scenario, at normal priority, is cheap, so the gate lets it through)
            String draft = json(send("POST", "/workbench/api/drafts", null)).get("id").asText();
            assertEquals(200, save(draft, "broker/costly.drl", joinOnHighPriority()).statusCode());
            assertEquals(200, save(draft, "broker/scenarios/costly.yaml", SCENARIO.replace("priority: high", "priority: normal")
                    .replace("[openclaw]", "[vp-trading]")).statusCode());
            HttpResponse<String> activated = send("POST", "/workbench/api/drafts/" + draft + "/activate",
                    "{\"note\": \"a join that only costs at high priority\", \"accept_golden_changes\": true}");
            assertEquals(200, activated.statusCode(), activated.body());
            String bad = ready().get("rules_revision").asText();
            assertTrue(!bad.equals(good), "the costly rule is live");

            // When a draft's Try runs it, then a live request at high priority runs it, twice
            HttpResponse<String> tried = send("POST", "/workbench/api/try", Json.write(Json.object().put("pack", "broker")
                    .put("draft", draft).set("input", Json.parse(costly("high").getBytes(StandardCharsets.UTF_8)))));
            HttpResponse<String> first = send("POST", "/v1/broker/route", costly("high"));
            HttpResponse<String> second = send("POST", "/v1/broker/route", costly("high"));

            // Then Try answers 422 and each live request 503 evaluation_too_costly, and the process lives on
            assertEquals(422, tried.statusCode(), tried.body());
            assertEquals("evaluation_too_costly", json(tried).path("error").asText(), tried.body());
            for (HttpResponse<String> r : List.of(first, second)) {
                assertEquals(503, r.statusCode(), r.body());
                assertEquals("evaluation_too_costly", json(r).path("error").asText(), r.body());
            }
            assertServes(server, "after the stops");

            // And the server went back to the last good revision by itself, recorded as a quarantine
            Await.until(Duration.ofSeconds(60), "the quarantine", () -> good.equals(revision()));
            JsonNode history = json(send("GET", "/workbench/api/activations", null));
            assertTrue(history.toString().contains("\"kind\":\"quarantine\"") && history.toString().contains(bad), history.toString());
            assertTrue(Files.readString(dir.resolve("data/audit.jsonl")).contains("quarantined"));
            assertTrue(server.printed("quarantined"), server.output());
            assertTrue(send("GET", "/metrics", null).body().contains("signalman_quarantines_total 1.0"));
            assertEquals(200, send("POST", "/v1/broker/route", costly("high")).statusCode(), "the good rules decide it");
            assertServes(server, "after the quarantine");

            // And a draft whose scenario runs the join at high priority is saved, its scenario stopped, and marked
            String poison = json(send("POST", "/workbench/api/drafts", null)).get("id").asText();
            assertEquals(200, save(poison, "broker/costly.drl", joinOnHighPriority()).statusCode());
            HttpResponse<String> saved = save(poison, "broker/scenarios/costly.yaml", SCENARIO);
            assertEquals(200, saved.statusCode(), saved.body());
            assertTrue(saved.body().contains(io.signalman.scenario.ScenarioResult.STOPPED.strip()), saved.body());
            assertTrue(json(send("GET", "/workbench/api/drafts/" + poison, null)).toString().contains("\"stopped\""));
            assertServes(server, "after the poison pill's save");
        }

        // When the server restarts on the same data
        try (ServeProcess server = start(rules, "--max-rule-combinations", "1000000000000000", "--max-rule-steps",
                "1000000000000000000", "--max-pack-steps", "1000000000000000000", "--max-decision-mb", "32")) {
            // Then opening every draft answers, the marked one with why instead of running its rules again
            int marked = 0;
            for (JsonNode d : json(send("GET", "/workbench/api/drafts", null))) {
                HttpResponse<String> opened = send("GET", "/workbench/api/drafts/" + d.path("id").asText(), null);
                assertEquals(200, opened.statusCode(), opened.body());
                marked += opened.body().contains("\"stopped\"") ? 1 : 0;
            }
            assertTrue(marked >= 1, "the poison pill's draft is shown as stopped");
            assertServes(server, "after reopening the marked draft");
        }
    }

    private static String joinOnHighPriority() {
        StringBuilder cards = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            cards.append("    AgentCard( $m.priority == \"high\" )\n");
        }
        return TestBundles.brokerRule("costly messages at high priority go to openclaw", 1000,
                "    $m : Message( subtype == \"costly.join\" )\n" + cards);
    }

    private static String costly(String priority) {
        return "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"" + priority + "\"}, \"type\": \"event\", "
                + "\"subtype\": \"costly.join\"}";
    }

    private ServeProcess start(Path rules, String... more) {
        List<String> args = new ArrayList<>(List.of("--rules", rules.toString(), "--admin-token", TOKEN));
        args.addAll(List.of(more));
        ServeProcess s = ServeProcess.launch(dir.resolve("data"), Map.of(), List.of("-XX:+ExitOnOutOfMemoryError"),
                args.toArray(String[]::new)).awaitServing(Duration.ofSeconds(90));
        port = s.port();
        return s;
    }

    /** The process is alive, healthy, and routes an ordinary message. */
    private void assertServes(ServeProcess server, String after) throws Exception {
        assertTrue(server.process().isAlive(), after + ": the server exited:\n" + server.output());
        HttpResponse<String> health = send("GET", "/health", null);
        assertEquals(200, health.statusCode(), after + ": " + health.body());
        HttpResponse<String> routed = send("POST", "/v1/broker/route", "{\"envelope\": {\"from_agent\": \"foresight\", "
                + "\"priority\": \"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\"}");
        assertEquals(200, routed.statusCode(), after + ": " + routed.body());
        assertTrue(routed.body().contains("vp-trading"), routed.body());
    }

    private HttpResponse<String> save(String draft, String path, String text) throws Exception {
        long version = json(send("GET", "/workbench/api/drafts/" + draft, null)).get("version").asLong();
        return send("PUT", "/workbench/api/drafts/" + draft + "/file?path=" + path,
                Json.write(Json.object().put("text", text).put("version", version)));
    }

    private String revision() {
        try {
            return ready().get("rules_revision").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode ready() throws Exception {
        return json(send("GET", "/ready", null));
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            return Json.parse(r.body());
        } catch (io.signalman.json.InputException e) {
            throw new AssertionError("not JSON: " + r.body(), e);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(120)).header("authorization", "Bearer " + TOKEN).header("content-type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
