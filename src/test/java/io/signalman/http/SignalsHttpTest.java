package io.signalman.http;

import static io.signalman.http.HttpCalls.error;
import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three-tier signal routing over HTTP and the event bus, against the shipped
 * rules on a real server. The server is shared by the class, and so are its FSM instances: a test
 * that needs an agent's FSM in some state uses an agent id no other test uses.
 */
class SignalsHttpTest {

    private static final String ROUTE = "/v1/signals/route";
    private static final String INSTANCES = "/v1/fsm/instances";
    private static final Set<String> TIERS = Set.of("strategy", "agent", "plugin");

    // HTTP/1.1 only: the JDK client would otherwise try an h2c upgrade, which is not what is under test.

    @TempDir
    static Path data;

    private static Server server;

    @BeforeAll
    static void startServer() throws Exception {
        server = start(data);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    // ---- agent tier: a predicate route over a catch-all ----------------------------------------

    @Test
    void reviewerUserMessageWithACommandTransitionsToCommandModeOverTheCatchAll() {
        JsonNode d = routeOk(signal("reviewer", "user_message", "{\"command\": \"/approve\"}"));

        assertRouted(d, "agent", "transition", "command-mode", "reviewer enters command mode on a command");
        assertEquals("signals/agents.drl", d.get("rules_fired").get(0).get("file").asText());
    }

    @Test
    void reviewerPlainUserMessageContinues() {
        JsonNode d = routeOk(signal("reviewer", "user_message", "{\"text\": \"looks good\"}"));

        assertRouted(d, "agent", "continue", null, "reviewer continues on any other user message");
    }

    @Test
    void reviewerUserMessageWithoutAPayloadFallsThroughToTheCatchAll() {
        // Given no payload at all, the command predicate fails and the lower route decides
        JsonNode d = routeOk("{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"user_message\"}}");

        assertRouted(d, "agent", "continue", null, "reviewer continues on any other user message");
    }

    // ---- plugin tier: defaults for agents without routes -------------------------------------

    @Test
    void anAgentWithNoRoutesIsStoppedGracefullyByTheRateLimiterWhenTheBudgetIsExhausted() {
        JsonNode d = routeOk(signal("summarizer", "user_message", "{\"budget_exhausted\": true}"));

        assertRouted(d, "plugin", "graceful_stop", null, "the rate limiter stops user messages once the budget is exhausted");
        assertEquals("signals/plugins.drl", d.get("rules_fired").get(0).get("file").asText());
    }

    @Test
    void anAgentWithNoRoutesAndBudgetLeftIsUnroutedWithStatus200() {
        // Given a budget flag that is false: the plugin's predicate fails and nothing else matches
        JsonNode d = routeOk(signal("summarizer", "user_message", "{\"budget_exhausted\": false}"));

        assertUnrouted(d);
    }

    @Test
    void anAgentWithNoRoutesAndNoPayloadIsUnrouted() {
        JsonNode d = routeOk(signal("summarizer", "user_message", "{\"text\": \"hello\"}"));

        assertUnrouted(d);
    }

    @Test
    void anAgentRouteBeatsThePluginRouteEvenWhenTheBudgetIsExhausted() {
        // Given the reviewer's catch-all (agent tier) and the rate limiter (plugin tier) both match
        JsonNode d = routeOk(signal("reviewer", "user_message", "{\"budget_exhausted\": true}"));

        // Then the higher tier decides
        assertRouted(d, "agent", "continue", null, "reviewer continues on any other user message");
    }

    @Test
    void toolResultsContinueByThePluginDefault() {
        JsonNode d = routeOk(signal("summarizer", "tool_result", "{\"output\": 42}"));

        assertRouted(d, "plugin", "continue", null, "tool results continue by default");
    }

    @Test
    void aStopForAnAgentWithoutAnFsmStopsGracefullyByThePluginDefault() {
        JsonNode d = routeOk(signal("summarizer", "stop", "null"));

        assertRouted(d, "plugin", "graceful_stop", null, "stop signals stop gracefully by default");
    }

    // ---- strategy tier: absolute over agent and plugin --------------------------------------

    @Test
    void theStrategyTierBeatsAHigherSalienceAgentRouteWhileTheTransactionIsProcessing(@TempDir Path ownData)
            throws Exception {
        // Given a server of its own (the FSM instance "reviewer" would change every reviewer route in
        // the shared one), with the reviewer's FSM running machine transaction and begun
        JsonNode before;
        String decisionId;
        try (Server own = start(ownData)) {
            json(post(own, INSTANCES, "{\"id\": \"reviewer\", \"machine\": \"transaction\"}"), 201);
            before = json(post(own, ROUTE, signal("reviewer", "user_message", "{\"command\": \"/approve\"}")), 200);
            JsonNode begun = json(post(own, INSTANCES + "/reviewer/actions", "{\"action\": \"begin\"}"), 200);
            assertEquals("processing", begun.get("to").asText());

            // When a user message with a command arrives (the agent route has salience 1,000,000)
            JsonNode d = json(post(own, ROUTE, signal("reviewer", "user_message", "{\"command\": \"/approve\"}")), 200);

            // Then the strategy route with salience 0 decides
            assertRouted(d, "strategy", "graceful_stop", null, "user messages stop gracefully while a transaction is processing");
            assertEquals("fsm/transaction.routes.drl", d.get("rules_fired").get(0).get("file").asText());
            assertEquals(1, d.get("rules_fired").size(), "only the deciding route fires: " + d);
            decisionId = d.get("decision_id").asText();
        }
        // (while idle, the strategy has no user_message route: the agent route decided)
        assertRouted(before, "agent", "transition", "command-mode", "reviewer enters command mode on a command");

        // And the decision log recorded the FSM state the strategy tier saw, for replay
        JsonNode record = decisionRecords(ownData.resolve("decisions")).stream()
                .filter(r -> r.get("decision_id").asText().equals(decisionId)).findFirst()
                .orElseThrow(() -> new AssertionError("no log record for " + decisionId));
        assertEquals("signals", record.get("pack").asText());
        assertEquals(Json.parse("{\"fsm\": {\"type\": \"fsm\", \"machine\": \"transaction\", \"current_state\": \"processing\"}}"),
                record.get("state_before"));
        assertEquals("strategy", record.get("decision").get("tier").asText());
    }

    @Test
    void aStopForceStopsAnAgentRunningATransactionInEveryState() {
        // Given an agent whose FSM runs machine transaction
        String agent = "stop-agent";
        createInstance(agent, "transaction");

        // When it is stopped while idle, then while processing
        JsonNode idle = routeOk(signal(agent, "stop", "{}"));
        act(agent, "begin");
        JsonNode processing = routeOk(signal(agent, "stop", "{}"));

        // Then the strategy force-stops it both times (over the plugin's graceful default)
        String rule = "a stop force-stops an agent running a transaction, in any state";
        assertRouted(idle, "strategy", "force_stop", null, rule);
        assertRouted(processing, "strategy", "force_stop", null, rule);
    }

    @Test
    void aTimerAsksAnIdleTransactionAgentForACheckAndOnlyWhenIdle() {
        String agent = "timer-agent";
        createInstance(agent, "transaction");

        JsonNode idle = routeOk(signal(agent, "timer", "{}"));
        act(agent, "begin");
        JsonNode processing = routeOk(signal(agent, "timer", "{}"));

        assertRouted(idle, "strategy", "transition", "check", "a timer on an idle transaction asks for a check");
        // no agent or plugin route for timers either: unrouted
        assertUnrouted(processing);
    }

    @Test
    void aUserMessageToAnIdleTransactionAgentIsNotGated() {
        // Given an agent with a transaction FSM that has not begun, and no routes of its own
        String agent = "idle-txn-agent";
        createInstance(agent, "transaction");

        JsonNode d = routeOk(signal(agent, "user_message", "{\"budget_exhausted\": true}"));

        // Then the strategy tier does not match and the plugin decides
        assertRouted(d, "plugin", "graceful_stop", null, "the rate limiter stops user messages once the budget is exhausted");
    }

    @Test
    void aStopForAnAgentRunningAnotherMachineIsNotForceStopped() {
        // Given an agent whose FSM runs review-flow, which contributes no signal routes
        String agent = "review-flow-agent";
        createInstance(agent, "review-flow");

        JsonNode d = routeOk(signal(agent, "stop", "{}"));

        assertRouted(d, "plugin", "graceful_stop", null, "stop signals stop gracefully by default");
    }

    // ---- custom kinds -------------------------------------------------------------------------

    @Test
    void customStopIsNotStopAndIsUnroutedForAnAgentWithoutARouteForIt() {
        JsonNode d = routeOk(signal("summarizer", "custom:Stop", "{}"));

        assertUnrouted(d);
    }

    @Test
    void customStopIsNotStopEvenForATransactionAgent() {
        String agent = "custom-stop-agent";
        createInstance(agent, "transaction");

        JsonNode d = routeOk(signal(agent, "custom:Stop", "{}"));

        assertUnrouted(d);
    }

    @Test
    void reviewerCustomEscalateBecomesACustomEscalateToHumanAction() {
        JsonNode d = routeOk(signal("reviewer", "custom:escalate", "{}"));

        assertRouted(d, "agent", "custom", "escalate-to-human", "reviewer escalates on request");
    }

    @Test
    void customKindNamesCompareExactly() {
        JsonNode d = routeOk(signal("reviewer", "custom:Escalate", "{}"));

        assertUnrouted(d);
    }

    @Test
    void plannerDeploysAnApprovedPlan() {
        JsonNode d = routeOk(signal("planner", "custom:deploy", "{\"approved\": true}"));

        assertRouted(d, "agent", "transition", "deploying", "planner deploys an approved plan");
    }

    @Test
    void plannerDeployWithoutApprovalFallsThroughAndIsUnrouted() {
        JsonNode unapproved = routeOk(signal("planner", "custom:deploy", "{\"approved\": false}"));
        JsonNode noPayload = routeOk("{\"agent\": \"planner\", \"signal\": {\"kind\": \"custom:deploy\"}}");

        assertUnrouted(unapproved);
        assertUnrouted(noPayload);
    }

    @Test
    void plannerReplansWhenItsTimerFires() {
        JsonNode d = routeOk(signal("planner", "timer", "{}"));

        assertRouted(d, "agent", "transition", "replan", "planner replans when its timer fires");
    }

    @Test
    void plannerContinuesOnUserMessages() {
        JsonNode d = routeOk(signal("planner", "user_message", "{\"text\": \"add a step\"}"));

        assertRouted(d, "agent", "continue", null, "planner continues on user messages");
    }

    // ---- explain --------------------------------------------------------------------

    @Test
    void explainTrueListsEverySignalsRuleWithItsStatus() {
        // Given a reviewer message with a command, which both reviewer user_message routes match
        String body = signal("reviewer", "user_message", "{\"command\": \"/approve\"}");

        // When it is routed with ?explain=true
        JsonNode d = json(post(server, ROUTE + "?explain=true", body), 200);

        // Then every rule of the signals pack is there once, each with a status
        JsonNode explain = d.get("explain");
        assertNotNull(explain, "explain=true must add an explain array: " + d);
        List<String> names = new ArrayList<>();
        explain.forEach(e -> names.add(e.get("rule").asText()));
        assertEquals(signalsRuleNames(), new HashSet<>(names));
        assertEquals(names.size(), new HashSet<>(names).size(), "each rule appears once: " + names);
        explain.forEach(e -> assertTrue(Set.of("fired", "matched-but-cancelled", "not-matched").contains(e.get("status").asText()),
                "unexpected status in " + e));
        assertEquals("fired", statusOf(explain, "reviewer enters command mode on a command"));
        assertEquals("matched-but-cancelled", statusOf(explain, "reviewer continues on any other user message"));
        assertEquals("not-matched", statusOf(explain, "planner continues on user messages"));
        assertEquals("not-matched", statusOf(explain, "tool results continue by default"));
        assertEquals("not-matched", statusOf(explain, "user messages stop gracefully while a transaction is processing"));
        assertRouted(d, "agent", "transition", "command-mode", "reviewer enters command mode on a command");
    }

    @Test
    void withoutExplainTheResponseHasNoExplainKey() {
        JsonNode d = routeOk(signal("reviewer", "user_message", "{}"));

        assertFalse(d.has("explain"));
    }

    // ---- bad input --------------------------------------------------------------------

    @Test
    void anUnknownSignalKindIsRefusedNamingSignalKind() {
        JsonNode e = error(post(server, ROUTE, signal("reviewer", "bogus", "{}")), 400);

        assertEquals("invalid_input", e.get("error").asText());
        assertEquals("signal.kind", e.get("details").get("field").asText());
    }

    @Test
    void anUppercaseBuiltInKindIsRefusedBecauseKindsAreCaseSensitive() {
        JsonNode e = error(post(server, ROUTE, signal("reviewer", "Stop", "{}")), 400);

        assertEquals("signal.kind", e.get("details").get("field").asText());
    }

    @Test
    void aCustomKindWithoutANameIsRefusedNamingSignalKind() {
        JsonNode e = error(post(server, ROUTE, signal("reviewer", "custom:", "{}")), 400);

        assertEquals("signal.kind", e.get("details").get("field").asText());
    }

    @Test
    void aMissingAgentIsRefusedNamingAgent() {
        JsonNode e = error(post(server, ROUTE, "{\"signal\": {\"kind\": \"stop\", \"payload\": {}}}"), 400);

        assertEquals("agent", e.get("details").get("field").asText());
    }

    @Test
    void aMissingSignalIsRefusedNamingSignal() {
        JsonNode e = error(post(server, ROUTE, "{\"agent\": \"reviewer\"}"), 400);

        assertEquals("signal", e.get("details").get("field").asText());
    }

    @Test
    void anUnknownTopLevelFieldIsRefusedNamingIt() {
        String body = "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"stop\"}, \"priority\": \"high\"}";

        JsonNode e = error(post(server, ROUTE, body), 400);

        assertEquals("priority", e.get("details").get("field").asText());
    }

    @Test
    void anUnknownFieldInsideTheSignalIsRefusedNamingItsPath() {
        String body = "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"stop\", \"paylod\": {}}}";

        JsonNode e = error(post(server, ROUTE, body), 400);

        assertEquals("signal.paylod", e.get("details").get("field").asText());
    }

    @Test
    void malformedJsonIsRefusedWith400MalformedJson() {
        JsonNode e = error(post(server, ROUTE, "{\"agent\": "), 400);

        assertEquals("malformed_json", e.get("error").asText());
    }

    // ---- the event bus ----------------------------------------------------------------

    @Test
    void theEventBusAddressRepliesWithTheSameDecisionShapeAsHttp() throws Exception {
        // Given the same signal sent over HTTP and to signalman.signals.route
        String body = signal("reviewer", "user_message", "{\"command\": \"/approve\"}");
        JsonNode overHttp = routeOk(body);

        Message<Object> reply = server.vertx().eventBus().request(SignalsApi.ADDRESS, new JsonObject(body))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        // Then the reply has the same fields and the same routing
        JsonNode overBus = Json.parse(((JsonObject) reply.body()).encode());
        assertRouted(overBus, "agent", "transition", "command-mode", "reviewer enters command mode on a command");
        assertEquals(fieldNames(overHttp), fieldNames(overBus));
        for (String f : List.of("action", "tier", "unrouted", "rule", "reason", "rules_fired", "rules_revision")) {
            assertEquals(overHttp.get(f), overBus.get(f), f);
        }
        assertFalse(overHttp.get("decision_id").equals(overBus.get("decision_id")), "each decision has its own id");
    }

    @Test
    void theEventBusAddressRepliesUnroutedForAnUnroutedSignal() throws Exception {
        String body = signal("summarizer", "custom:Stop", "{}");

        Message<Object> reply = server.vertx().eventBus().request(SignalsApi.ADDRESS, body)
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertUnrouted(Json.parse(((JsonObject) reply.body()).encode()));
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Server start(Path dataDir) throws Exception {
        return Server.start(TestBundles.seedServer().withData(dataDir).withBlockedWarnMs(200));
    }

    private static String signal(String agent, String kind, String payloadJson) {
        return "{\"agent\": \"" + agent + "\", \"signal\": {\"kind\": \"" + kind + "\", \"payload\": " + payloadJson + "}}";
    }

    private static void createInstance(String id, String machine) {
        json(post(server, INSTANCES, "{\"id\": \"" + id + "\", \"machine\": \"" + machine + "\"}"), 201);
    }

    private static void act(String id, String action) {
        json(post(server, INSTANCES + "/" + id + "/actions", "{\"action\": \"" + action + "\"}"), 200);
    }

    private static JsonNode routeOk(String body) {
        return json(post(server, ROUTE, body), 200);
    }

    private static HttpResponse<String> post(Server to, String path, String body) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).GET());
    }

    /** A routed decision: its action, its tier, the deciding rule, and the metadata every decision carries. */
    private static void assertRouted(JsonNode d, String tier, String type, String value, String rule) {
        assertMetadata(d);
        assertFalse(d.get("unrouted").asBoolean(), d.toString());
        assertEquals(tier, d.get("tier").asText(), d.toString());
        JsonNode action = d.get("action");
        assertTrue(action != null && action.isObject(), d.toString());
        assertEquals(type, action.get("type").asText(), d.toString());
        if (value == null) {
            assertFalse(action.has("value") && !action.get("value").isNull(), "no value expected: " + d);
        } else {
            assertEquals(value, action.get("value").asText(), d.toString());
        }
        assertEquals(rule, d.get("rule").asText(), d.toString());
        assertTrue(d.get("reason").isTextual() && !d.get("reason").asText().isBlank(), d.toString());
        assertTrue(firedRuleNames(d).contains(rule), "the deciding rule is among those fired: " + d);
    }

    /** No route matched: action and tier null, unrouted true, no deciding rule, still a decision. */
    private static void assertUnrouted(JsonNode d) {
        assertMetadata(d);
        assertTrue(d.get("unrouted").asBoolean(), d.toString());
        assertTrue(d.has("action") && d.get("action").isNull(), d.toString());
        assertTrue(d.has("tier") && d.get("tier").isNull(), d.toString());
        assertTrue(d.get("rule").isNull(), d.toString());
        assertEquals(0, d.get("rules_fired").size(), d.toString());
    }

    private static void assertMetadata(JsonNode d) {
        assertEquals(26, d.get("decision_id").asText().length(), d.toString());
        assertTrue(d.get("rules_revision").asText().startsWith("sha256:"), d.toString());
        assertTrue(d.has("rule") && d.has("reason"), d.toString());
        assertTrue(d.get("rules_fired").isArray(), d.toString());
        for (JsonNode f : d.get("rules_fired")) {
            assertEquals("signals", f.get("pack").asText(), f.toString());
            assertTrue(f.get("file").asText().startsWith("signals/") || f.get("file").asText().startsWith("fsm/"), f.toString());
            assertTrue(f.get("line").asInt() > 0, f.toString());
        }
        if (!d.get("tier").isNull()) {
            assertTrue(TIERS.contains(d.get("tier").asText()), d.toString());
        }
    }

    private static List<String> firedRuleNames(JsonNode d) {
        return StreamSupport.stream(d.get("rules_fired").spliterator(), false).map(f -> f.get("rule").asText()).toList();
    }

    private static Set<String> fieldNames(JsonNode n) {
        Set<String> names = new HashSet<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String statusOf(JsonNode explain, String rule) {
        return StreamSupport.stream(explain.spliterator(), false).filter(e -> e.get("rule").asText().equals(rule))
                .findFirst().orElseThrow(() -> new AssertionError(rule + " is not in explain")).get("status").asText();
    }

    private static Set<String> signalsRuleNames() {
        Set<String> names = new HashSet<>();
        json(get("/v1/rules"), 200).get("rules").forEach(r -> {
            if (r.get("pack").asText().equals("signals")) {
                names.add(r.get("name").asText());
            }
        });
        assertEquals(14, names.size(), "the shipped signals pack: 8 agent, 3 plugin, 3 strategy routes: " + names);
        return names;
    }

    private static List<JsonNode> decisionRecords(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        List<JsonNode> records = new ArrayList<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                try {
                    records.add(Json.parse(line));
                } catch (InputException e) {
                    throw new AssertionError(f + " has a line that is not JSON: " + line, e);
                }
            }
        }
        return records;
    }
}
