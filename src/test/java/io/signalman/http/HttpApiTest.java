package io.signalman.http;

import static io.signalman.http.HttpCalls.decisionRecords;
import static io.signalman.http.HttpCalls.error;
import static io.signalman.http.HttpCalls.explainedOnce;
import static io.signalman.http.HttpCalls.fieldNames;
import static io.signalman.http.HttpCalls.firedRuleNames;
import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.ruleNames;
import static io.signalman.http.HttpCalls.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.broker.RouteDecision;
import io.signalman.broker.SeedExamples;
import io.signalman.json.Json;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The HTTP API and the event-bus address against a real server on a free
 * loopback port, spoken to with the JDK's own HTTP client: no mocks between the test and the wire.
 * The server is started once for the class because compiling the bundle is the slow part.
 */
class HttpApiTest {

    private static final String ROUTE = "/v1/broker/route";
    private static final String BATCH = "/v1/broker/route:batch";
    private static final String BROKER_FILE = "broker/routing.drl";

    @RegisterExtension
    static final TestServer server = TestServer.seed();

    // ---- every shipped rule, over HTTP: the seed's examples ---------------------------

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.signalman.broker.SeedExamples#ALL")
    void everyShippedBrokerRuleDecidesOverHttp(SeedExamples.Example c) {
        JsonNode d = routeOk(c.json());

        assertDecision(d, c.rule());
        RouteDecision want = c.decision();
        assertEquals(want.primaryRecipients(), strings(d.get("primary_recipients")), "primary recipients: " + d);
        assertEquals(want.fanOut(), strings(d.get("fan_out")), "fan-out: " + d);
        assertEquals(want.storeInMemory(), d.get("store_in_memory").asBoolean(), "stored: " + d);
        assertEquals(want.convertedToEscalation(), d.get("converted_to_escalation").asBoolean(), "converted to an escalation: " + d);
        if (want.priorityOverride() == null) {
            assertTrue(d.get("priority_override").isNull(), "no priority override: " + d);
        } else {
            assertEquals(want.priorityOverride(), d.get("priority_override").asText(), d.toString());
        }
    }

    @Test
    void anExecutedTradeFiresTheDecidingRuleThenTheAdditiveStoreRule() {
        JsonNode d = routeOk(message("foresight", "normal", "event", "trade.executed"));

        assertEquals(List.of("trade messages go to VP Trading", "executed and completed trades are kept in memory"),
                firedRuleNames(d));
    }

    // ---- explain --------------------------------------------------------------------

    @Test
    void explainTrueListsEveryBrokerRuleAsFiredCancelledOrNotMatched() {
        // Given a critical trade message, which the trade rule and the default rule also match: when it is
        // routed with ?explain=true, then every broker rule is listed once, with the status it ended with
        explainedOnce(server, ROUTE, message("foresight", "critical", "event", "trade.executed"), ruleNames(server, "broker"), Map.of(
                "critical messages go to openclaw and knox", "fired",
                "executed and completed trades are kept in memory", "fired",
                "trade messages go to VP Trading", "matched-but-cancelled",
                "everything else goes to the sender's manager", "matched-but-cancelled",
                "tool messages go to the Sr. Director of Tooling at low priority", "not-matched"));
    }

    @Test
    void explainNamesTheFailedConstraintOfEachUnmatchedRuleAndTheValueItSaw() {
        // Given a high-priority trade
        String body = message("foresight", "high", "event", "trade.executed");

        // When it is routed with ?explain=true
        JsonNode explain = json(server.post(ROUTE + "?explain=true", body), 200).get("explain");

        // Then the critical rule says which constraint failed and what priority was
        JsonNode critical = lineOf(explain, "critical messages go to openclaw and knox");
        JsonNode failed = critical.get("failed");
        assertEquals("priority == \"critical\"", failed.get("constraint").asText());
        assertEquals("high", failed.get("values").get("priority").asText());
        assertFalse(failed.get("result").asBoolean());
        assertTrue(critical.get("why").asText().contains("priority == \"critical\" was false: priority is \"high\""),
                critical.toString());
        assertFalse(lineOf(explain, "trade messages go to VP Trading").has("failed"), "a rule that fired failed nothing");
    }

    @Test
    void whyNotAnswersForOneRuleWithEveryConstraint() {
        String rule = "messages outside the sender's authority are escalated to the sender's manager";
        String query = "?explain=true&why_not=" + java.net.URLEncoder.encode(rule, java.nio.charset.StandardCharsets.UTF_8);

        JsonNode whyNot = json(server.post(ROUTE + query, message("foresight", "high", "event", "trade.executed")), 200)
                .get("why_not");

        assertEquals(rule, whyNot.get("rule").asText());
        assertEquals("not-matched", whyNot.get("status").asText());
        assertFalse(whyNot.get("holds").asBoolean());
        assertEquals("!mayPublish($m.subtype)", whyNot.get("failed").get("constraint").asText());
        List<String> constraints = new ArrayList<>();
        whyNot.get("constraints").forEach(c -> constraints.add(c.get("constraint").asText() + "=" + c.get("result")));
        assertEquals(List.of("type != \"escalation\"=true", "id == $m.fromAgent=true", "!mayPublish($m.subtype)=false"),
                constraints);
    }

    @Test
    void whyNotForARuleThePackDoesNotHaveIs422UnknownRule() {
        JsonNode e = error(server.post(ROUTE + "?explain=true&why_not=no-such-rule",
                message("foresight", "high", "event", "trade.executed")), 422);

        assertEquals("unknown_rule", e.get("error").asText());
        assertTrue(e.get("message").asText().contains("trade messages go to VP Trading"), "lists the pack's rules: " + e);
    }

    @Test
    void withoutExplainTheResponseHasNoExplainKey() {
        JsonNode d = routeOk(message("foresight", "critical", "event", "trade.executed"));

        assertFalse(d.has("explain"));
    }

    // ---- errors -----------------------------------------------------------------------

    @Test
    void aBodyOverSixtyFourKibIsRefusedWith413() {
        // Given a syntactically valid message whose payload pushes the body past 64 KiB
        String big = "{\"envelope\": {\"from_agent\": \"foresight\"}, \"type\": \"event\", \"subtype\": \"x.y\", "
                + "\"payload\": {\"blob\": \"" + "a".repeat(70 * 1024) + "\"}}";

        JsonNode e = error(server.post(ROUTE, big), 413);

        assertEquals("body_too_large", e.get("error").asText());
    }

    @Test
    void anUnknownPathIsA404JsonError() {
        JsonNode e = error(server.get("/no-such-thing"), 404);

        assertEquals("not_found", e.get("error").asText());
    }

    @Test
    void anUnknownPathUnderV1IsA404JsonErrorWhateverTheMethod() {
        // A path that names nothing is "not found", not "method not allowed": 405 would tell the
        // client the resource exists and only the method is wrong.
        assertEquals("not_found", error(server.post("/v1/no-such-thing", message("foresight", "normal", "event", "x.y")), 404)
                .get("error").asText());
        assertEquals("not_found", error(server.get("/v1/no-such-thing"), 404).get("error").asText());
    }

    @Test
    void withoutTheBenchFlagTheBenchEchoIsNotServed() {
        // A server started as production starts it (no --bench-endpoints) has no echo: a JSON body
        // that the echo would send back is a 404 like any path that names nothing.
        JsonNode e = error(server.post(BenchEcho.ECHO, "{\"a\": 1}"), 404);

        assertEquals("not_found", e.get("error").asText());
    }

    @Test
    void getOnTheRouteEndpointIsA405() {
        error(server.get(ROUTE), 405);
    }

    @Test
    void aPlainTextBodyIsA415() {
        error(HttpCalls.send(HttpRequest.newBuilder(server.uri(ROUTE)).header("content-type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(message("foresight", "normal", "event", "x.y")))), 415);
    }

    // ---- batch ------------------------------------------------------------------------

    @Test
    void aJsonArrayBatchReturnsOneDecisionPerMessageInOrder() {
        String body = "[" + message("foresight", "normal", "event", "trade.executed") + ","
                + message("tool-smith", "normal", "event", "tool.installed") + ","
                + message("stranger", "normal", "event", "misc.hello") + "]";

        JsonNode out = json(server.post(BATCH, body), 200);

        assertBatchInOrder(out);
    }

    @Test
    void aJsonLinesBatchReturnsOneDecisionPerLineInOrder() {
        String body = message("foresight", "normal", "event", "trade.executed") + "\n"
                + message("tool-smith", "normal", "event", "tool.installed") + "\n"
                + message("stranger", "normal", "event", "misc.hello") + "\n";

        JsonNode out = json(HttpCalls.send(HttpRequest.newBuilder(server.uri(BATCH)).header("content-type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(body))), 200);

        assertBatchInOrder(out);
    }

    @Test
    void aBatchWithOneBadItemIsRefusedWholeNamingTheItemAndDecidesNothing() {
        // Given a batch whose second item (index 1) has an invalid priority, between two good ones
        long firedBefore = totalBrokerFirings();
        String body = "[" + message("foresight", "normal", "event", "trade.executed") + ","
                + message("foresight", "urgent", "event", "trade.executed") + ","
                + message("stranger", "normal", "event", "misc.hello") + "]";

        // When it is posted
        JsonNode e = error(server.post(BATCH, body), 400);

        // Then the error names the item by its 0-based index, and no rule fired for any item
        String field = e.get("details").get("field").asText();
        assertTrue(field.startsWith("[1]"), "field was " + field);
        assertEquals(firedBefore, totalBrokerFirings(), "a refused batch must decide nothing");
    }

    // ---- health, readiness, rules -----------------------------------------------

    @Test
    void healthIsLive() {
        json(server.get("/health"), 200);
    }

    @Test
    void readyReportsTheLoadedRulesRevision() {
        JsonNode r = json(server.get("/ready"), 200);

        assertTrue(r.get("rules_revision").asText().startsWith("sha256:"));
    }

    @Test
    void aServerNotClusteredShowsItselfAloneInTheClusterView() {
        JsonNode view = json(server.get("/v1/cluster"), 200);

        assertFalse(view.get("clustered").asBoolean());
        assertTrue(view.get("consistent").asBoolean());
        assertEquals(1, view.get("members").size());
        JsonNode me = view.get("members").get(0);
        assertTrue(me.get("self").asBoolean());
        assertEquals(json(server.get("/ready"), 200).get("rules_revision"), me.get("rules_revision"));
        assertEquals(me.get("rules_revision"), view.get("rules_revision"));
        assertTrue(me.get("http").asText().endsWith(":" + server.port()), me.toString());
    }

    @Test
    void rulesListsEveryBrokerRuleWithWhereItIsAndHowOftenItFired() {
        // Given a trade message has been routed
        routeOk(message("foresight", "normal", "event", "trade.entry"));

        // When the rules are listed
        JsonNode view = json(server.get("/v1/rules"), 200);

        // Then the revision and the 15 broker rules are there, each fully described
        assertTrue(view.get("revision").asText().startsWith("sha256:"));
        List<JsonNode> broker = brokerRules(view);
        assertEquals(15, broker.size());
        for (JsonNode r : broker) {
            assertEquals(BROKER_FILE, r.get("file").asText(), r.toString());
            assertTrue(r.get("name").isTextual(), r.toString());
            assertTrue(r.get("line").asInt() > 0, r.toString());
            assertTrue(r.get("salience").isNumber(), r.toString());
            assertTrue(r.get("reason").isTextual() && !r.get("reason").asText().isBlank(), r.toString());
            assertTrue(r.get("fired").isNumber(), r.toString());
        }
        JsonNode trade = broker.stream().filter(r -> r.get("name").asText().equals("trade messages go to VP Trading"))
                .findFirst().orElseThrow();
        assertTrue(trade.get("fired").asLong() >= 1);
    }

    // ---- the event bus ----------------------------------------------------------------

    @Test
    void theEventBusAddressRepliesWithTheSameDecisionShapeAsHttp() throws Exception {
        // Given the same message sent over HTTP and over the event bus
        String body = message("foresight", "normal", "event", "trade.executed");
        JsonNode overHttp = routeOk(body);

        // When it is sent to signalman.broker.route
        Message<Object> reply = server.vertx().eventBus().request(BrokerApi.ADDRESS, new JsonObject(body))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

        // Then the reply is a decision with the same fields and the same routing
        JsonNode overBus = Json.parse(((JsonObject) reply.body()).encode());
        assertDecision(overBus, "trade messages go to VP Trading");
        assertEquals(fieldNames(overHttp), fieldNames(overBus));
        for (String f : List.of("primary_recipients", "fan_out", "store_in_memory", "priority_override",
                "converted_to_escalation", "rule", "reason", "rules_fired", "rules_revision")) {
            assertEquals(overHttp.get(f), overBus.get(f), f);
        }
    }

    @Test
    void aBadEventBusMessageFailsWithCode400() {
        JsonObject bad = new JsonObject(message("foresight", "urgent", "event", "x.y"));

        ExecutionException e = assertThrows(ExecutionException.class, () -> server.vertx().eventBus()
                .request(BrokerApi.ADDRESS, bad).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));

        ReplyException reply = assertInstanceOf(ReplyException.class, e.getCause());
        assertEquals(400, reply.failureCode());
    }

    // ---- a caller's trace, with tracing off (TracingTest has it on) ---------------------

    @Test
    void aCallersValidTraceparentIsLoggedWithTheDecisionEvenWithTracingOff() throws Exception {
        // Given this server, which makes no spans (no --otel-endpoint), and requests with and without a trace
        String traced = "4bf92f3577b34da6a3ce929d0e0e4736";
        Map<String, String> sent = new java.util.LinkedHashMap<>();
        sent.put("00-" + traced + "-00f067aa0ba902b7-01", traced);
        sent.put("00-" + traced.replace('4', '5') + "-00f067aa0ba902b7-00", traced.replace('4', '5')); // not sampled: still a trace
        sent.put("00-00000000000000000000000000000000-00f067aa0ba902b7-01", null); // all-zero trace id: invalid
        sent.put("00-" + traced + "-0000000000000000-01", null); // all-zero parent: invalid
        sent.put("00-" + traced.toUpperCase(java.util.Locale.ROOT) + "-00f067aa0ba902b7-01", null); // upper case: invalid
        sent.put("00-" + traced + "-00f067aa0ba902b7", null); // no flags
        sent.put("\"}, \"injected\": {\"x\": 1}", null); // text a log writer must not take as JSON
        Map<String, String> logged = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : sent.entrySet()) {
            HttpRequest.Builder request = HttpRequest.newBuilder(server.uri(ROUTE)).header("content-type", "application/json")
                    .header("traceparent", e.getKey())
                    .POST(HttpRequest.BodyPublishers.ofString(message("foresight", "normal", "event", "trade.executed")));
            logged.put(e.getKey(), json(HttpCalls.send(request), 200).get("decision_id").asText());
        }
        String untraced = routeOk(message("foresight", "normal", "event", "trade.executed")).get("decision_id").asText();
        // and a bus message with a traceparent header
        String busTrace = "0af7651916cd43dd8448eb211c80319c";
        Message<Object> reply = server.vertx().eventBus().request(BrokerApi.ADDRESS,
                new JsonObject(message("foresight", "normal", "event", "trade.executed")),
                new io.vertx.core.eventbus.DeliveryOptions().addHeader("traceparent", "00-" + busTrace + "-b7ad6b7169203331-01"))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String overBus = ((JsonObject) reply.body()).getString("decision_id");

        // When the decision log is read
        Map<String, JsonNode> records = new java.util.HashMap<>();
        for (JsonNode r : decisionRecords(server.dir().resolve("decisions"))) {
            records.put(r.get("decision_id").asText(), r);
        }

        // Then a valid traceparent's trace id is the record's trace_id; an invalid one, or none, gives no trace_id
        for (Map.Entry<String, String> e : sent.entrySet()) {
            JsonNode r = records.get(logged.get(e.getKey()));
            assertEquals(e.getValue(), r.hasNonNull("trace_id") ? r.get("trace_id").asText() : null, e.getKey() + ": " + r);
        }
        assertFalse(records.get(untraced).has("trace_id"), records.get(untraced).toString());
        assertEquals(busTrace, records.get(overBus).path("trace_id").asText(), records.get(overBus).toString());
    }

    // ---- the decision log -------------------------------------------------------------

    @Test
    void everyDecisionIsWrittenToTheDecisionLogOnceWithItsInputAndOutcome(@TempDir Path otherData) throws Exception {
        // Given a second server with its own data directory, and N messages routed through it
        List<String> sent = List.of(
                message("foresight", "normal", "event", "trade.executed"),
                message("tool-smith", "normal", "event", "trade.executed"),
                message("indecision-engine", "normal", "event", "signal.published"),
                message("stranger", "low", "event", "misc.hello"),
                message("foresight", "critical", "event", "pnl.report"));
        List<String> ids = new ArrayList<>();
        try (Server second = start(otherData)) {
            for (String body : sent) {
                ids.add(json(HttpCalls.post(second, ROUTE, body), 200).get("decision_id").asText());
            }
        }
        // (close() is the clean shutdown that flushes the log)

        // When every *.jsonl under <data>/decisions is read
        List<JsonNode> records = decisionRecords(otherData.resolve("decisions"));

        // Then there is exactly one complete record per decision, matching what the client was told
        assertEquals(sent.size(), records.size());
        for (int i = 0; i < records.size(); i++) {
            JsonNode r = records.get(i);
            for (String f : List.of("decision_id", "at", "pack", "endpoint", "rules_revision", "input", "decision")) {
                assertTrue(r.hasNonNull(f), "record lacks " + f + ": " + r);
            }
            assertEquals("broker", r.get("pack").asText());
            assertEquals(ROUTE, r.get("endpoint").asText());
            assertTrue(r.get("rules_revision").asText().startsWith("sha256:"));
            assertTrue(r.get("decision").hasNonNull("rule"), r.toString());
            assertTrue(r.get("decision").get("primary_recipients").isArray(), r.toString());
        }
        // sequential requests, one writer: the log is in decision order
        assertEquals(ids, records.stream().map(r -> r.get("decision_id").asText()).toList());
        assertEquals(Json.parse(sent.get(1)).get("envelope").get("from_agent"),
                records.get(1).get("input").get("envelope").get("from_agent"));
        assertTrue(records.get(1).get("decision").get("converted_to_escalation").asBoolean());
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Server start(Path dataDir) throws Exception {
        return Server.start(TestBundles.seedServer().withData(dataDir).withBlockedWarnMs(200));
    }

    private static String message(String from, String priority, String type, String subtype) {
        return "{\"envelope\": {\"from_agent\": \"" + from + "\", \"priority\": \"" + priority + "\"}, "
                + "\"type\": \"" + type + "\", \"subtype\": \"" + subtype + "\"}";
    }

    private static JsonNode routeOk(String body) {
        return json(server.post(ROUTE, body), 200);
    }

    /** The metadata every decision carries, decided by {@code rule}. */
    private static void assertDecision(JsonNode d, String rule) {
        assertEquals(26, d.get("decision_id").asText().length(), d.toString());
        assertTrue(d.get("rules_revision").asText().startsWith("sha256:"), d.toString());
        assertEquals(rule, d.get("rule").asText());
        assertTrue(d.get("reason").isTextual() && !d.get("reason").asText().isBlank(), d.toString());
        JsonNode fired = d.get("rules_fired");
        assertTrue(fired.isArray() && fired.size() >= 1, d.toString());
        for (JsonNode f : fired) {
            assertTrue(f.get("rule").isTextual(), f.toString());
            assertEquals("broker", f.get("pack").asText());
            assertEquals(BROKER_FILE, f.get("file").asText());
            assertTrue(f.get("line").asInt() > 0, f.toString());
            assertTrue(f.get("reason").isTextual(), f.toString());
        }
        assertTrue(firedRuleNames(d).contains(rule), "the deciding rule is among those fired: " + d);
        assertTrue(d.get("primary_recipients").isArray() && d.get("primary_recipients").size() >= 1, d.toString());
    }

    private static void assertBatchInOrder(JsonNode out) {
        assertTrue(out.isArray(), out.toString());
        assertEquals(3, out.size());
        assertDecision(out.get(0), "trade messages go to VP Trading");
        assertDecision(out.get(1), "tool messages go to the Sr. Director of Tooling at low priority");
        assertDecision(out.get(2), "everything else goes to the sender's manager");
        assertEquals(List.of("vp-trading"), strings(out.get(0).get("primary_recipients")));
        assertEquals(List.of("sr-director-tooling"), strings(out.get(1).get("primary_recipients")));
        assertEquals(List.of("openclaw"), strings(out.get(2).get("primary_recipients")));
    }

    private static JsonNode lineOf(JsonNode explain, String rule) {
        for (JsonNode e : explain) {
            if (rule.equals(e.get("rule").asText())) {
                return e;
            }
        }
        throw new AssertionError("no explain line for " + rule + " in " + explain);
    }

    private static List<JsonNode> brokerRules(JsonNode view) {
        return StreamSupport.stream(view.get("rules").spliterator(), false)
                .filter(r -> r.get("pack").asText().equals("broker")).toList();
    }

    private static long totalBrokerFirings() {
        return brokerRules(json(server.get("/v1/rules"), 200)).stream().mapToLong(r -> r.get("fired").asLong()).sum();
    }
}
