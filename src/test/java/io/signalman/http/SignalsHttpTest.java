package io.signalman.http;

import static io.signalman.http.HttpCalls.decisionRecords;
import static io.signalman.http.HttpCalls.explainedOnce;
import static io.signalman.http.HttpCalls.fieldNames;
import static io.signalman.http.HttpCalls.firedRuleNames;
import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.post;
import static io.signalman.http.HttpCalls.ruleNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Three-tier signal routing over HTTP and the event bus, against the shipped
 * rules on a real server. The server is shared by the class, and so are its FSM instances: a test
 * that needs an agent's FSM in some state uses an agent id no other test uses.
 */
class SignalsHttpTest {

    private static final String ROUTE = "/v1/signals/route";
    private static final String INSTANCES = "/v1/fsm/instances";
    private static final AtomicInteger GATED_IDS = new AtomicInteger();
    private static final Set<String> TIERS = Set.of("strategy", "agent", "plugin");

    @RegisterExtension
    static final TestServer server = TestServer.seed();

    // ---- the agent and plugin tiers, for agents without an FSM ---------------------------------

    /** A signal and the route that decides it: its tier, its action ({@code value} null: none) and the rule. */
    private record Routed(String why, String body, String tier, String type, String value, String rule) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Routed> ROUTED = List.of(
            new Routed("a reviewer user message with a command transitions to command mode over the catch-all",
                    signal("reviewer", "user_message", "{\"command\": \"/approve\"}"),
                    "agent", "transition", "command-mode", "reviewer enters command mode on a command"),
            new Routed("a reviewer's plain user message continues",
                    signal("reviewer", "user_message", "{\"text\": \"looks good\"}"),
                    "agent", "continue", null, "reviewer continues on any other user message"),
            new Routed("a reviewer user message without a payload fails the command predicate and falls through to the catch-all",
                    "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"user_message\"}}",
                    "agent", "continue", null, "reviewer continues on any other user message"),
            new Routed("an agent with no routes is stopped gracefully by the rate limiter when the budget is exhausted",
                    signal("summarizer", "user_message", "{\"budget_exhausted\": true}"),
                    "plugin", "graceful_stop", null, "the rate limiter stops user messages once the budget is exhausted"),
            new Routed("an agent route beats the plugin route even when the budget is exhausted",
                    signal("reviewer", "user_message", "{\"budget_exhausted\": true}"),
                    "agent", "continue", null, "reviewer continues on any other user message"),
            new Routed("tool results continue by the plugin default", signal("summarizer", "tool_result", "{\"output\": 42}"),
                    "plugin", "continue", null, "tool results continue by default"),
            new Routed("a stop for an agent without an FSM stops gracefully by the plugin default", signal("summarizer", "stop", "null"),
                    "plugin", "graceful_stop", null, "stop signals stop gracefully by default"),
            new Routed("the reviewer's custom:escalate becomes a custom escalate-to-human action",
                    signal("reviewer", "custom:escalate", "{}"), "agent", "custom", "escalate-to-human", "reviewer escalates on request"),
            new Routed("the planner deploys an approved plan", signal("planner", "custom:deploy", "{\"approved\": true}"),
                    "agent", "transition", "deploying", "planner deploys an approved plan"),
            new Routed("the planner replans when its timer fires", signal("planner", "timer", "{}"),
                    "agent", "transition", "replan", "planner replans when its timer fires"),
            new Routed("the planner continues on user messages", signal("planner", "user_message", "{\"text\": \"add a step\"}"),
                    "agent", "continue", null, "planner continues on user messages"));

    /** A signal no route matches: 200 with an unrouted decision. */
    private record Unrouted(String why, String body) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Unrouted> UNROUTED = List.of(
            new Unrouted("an agent with no routes and budget left (the plugin's predicate fails)",
                    signal("summarizer", "user_message", "{\"budget_exhausted\": false}")),
            new Unrouted("an agent with no routes and no budget flag", signal("summarizer", "user_message", "{\"text\": \"hello\"}")),
            new Unrouted("custom:Stop is not stop, for an agent without a route for it", signal("summarizer", "custom:Stop", "{}")),
            new Unrouted("custom kind names compare exactly (custom:Escalate)", signal("reviewer", "custom:Escalate", "{}")),
            new Unrouted("the planner's deploy without approval falls through",
                    signal("planner", "custom:deploy", "{\"approved\": false}")),
            new Unrouted("the planner's deploy without a payload falls through",
                    "{\"agent\": \"planner\", \"signal\": {\"kind\": \"custom:deploy\"}}"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("ROUTED")
    void aSignalIsDecidedByTheRouteOfTheHighestMatchingTier(Routed c) {
        JsonNode d = routeOk(c.body());

        assertRouted(d, c.tier(), c.type(), c.value(), c.rule());
        assertEquals("signals/" + c.tier() + "s.drl", d.get("rules_fired").get(0).get("file").asText(), "the deciding rule's file");
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("UNROUTED")
    void aSignalNoRouteMatchesIsUnroutedWithStatus200(Unrouted c) {
        assertUnrouted(routeOk(c.body()));
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

    /**
     * A signal for an agent whose FSM runs {@code machine}, moved by the actions {@code before}, and
     * the route that decides it ({@code rule} null: unrouted, 200 with no action).
     */
    private record Gated(String why, String machine, List<String> before, String kind, String payload, String tier,
                         String type, String value, String rule) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final String FORCE_STOP = "a stop force-stops an agent running a transaction, in any state";

    private static final List<Gated> GATED = List.of(
            new Gated("a stop force-stops an idle transaction agent over the plugin's graceful default", "transaction",
                    List.of(), "stop", "{}", "strategy", "force_stop", null, FORCE_STOP),
            new Gated("a stop force-stops a processing transaction agent over the plugin's graceful default", "transaction",
                    List.of("begin"), "stop", "{}", "strategy", "force_stop", null, FORCE_STOP),
            new Gated("a timer asks an idle transaction agent for a check", "transaction", List.of(), "timer", "{}",
                    "strategy", "transition", "check", "a timer on an idle transaction asks for a check"),
            // no agent or plugin route for timers either
            new Gated("a timer for a processing transaction agent is unrouted", "transaction", List.of("begin"), "timer", "{}",
                    null, null, null, null),
            // the agent has no routes of its own: the strategy tier does not match and the plugin decides
            new Gated("a user message to an idle transaction agent is not gated", "transaction", List.of(), "user_message",
                    "{\"budget_exhausted\": true}", "plugin", "graceful_stop", null,
                    "the rate limiter stops user messages once the budget is exhausted"),
            new Gated("a stop for an agent running review-flow (no signal routes) is not force-stopped", "review-flow",
                    List.of(), "stop", "{}", "plugin", "graceful_stop", null, "stop signals stop gracefully by default"),
            new Gated("custom:Stop is not stop, even for a transaction agent", "transaction", List.of(), "custom:Stop", "{}",
                    null, null, null, null));

    @ParameterizedTest(name = "{0}")
    @FieldSource("GATED")
    void aSignalForAnAgentWithAnFsmIsRoutedByItsMachineAndState(Gated c) {
        // Given an agent of its own whose FSM runs the machine, moved by the actions before
        String agent = "gated-" + GATED_IDS.incrementAndGet();
        createInstance(agent, c.machine());
        c.before().forEach(a -> act(agent, a));

        // When the signal is routed
        JsonNode d = routeOk(signal(agent, c.kind(), c.payload()));

        // Then the route decides it, or none
        if (c.rule() == null) {
            assertUnrouted(d);
        } else {
            assertRouted(d, c.tier(), c.type(), c.value(), c.rule());
        }
    }

    // ---- explain --------------------------------------------------------------------

    @Test
    void explainTrueListsEverySignalsRuleWithItsStatus() {
        // Given a reviewer message with a command, which both reviewer user_message routes match: when it
        // is routed with ?explain=true, then every rule of the signals pack is there once, each with a status
        String body = signal("reviewer", "user_message", "{\"command\": \"/approve\"}");
        JsonNode d = explainedOnce(server, ROUTE, body, signalsRuleNames(), Map.of(
                "reviewer enters command mode on a command", "fired",
                "reviewer continues on any other user message", "matched-but-cancelled",
                "planner continues on user messages", "not-matched",
                "tool results continue by default", "not-matched",
                "user messages stop gracefully while a transaction is processing", "not-matched"));
        assertRouted(d, "agent", "transition", "command-mode", "reviewer enters command mode on a command");
    }

    @Test
    void withoutExplainTheResponseHasNoExplainKey() {
        JsonNode d = routeOk(signal("reviewer", "user_message", "{}"));

        assertFalse(d.has("explain"));
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

    private static Set<String> signalsRuleNames() {
        Set<String> names = ruleNames(server, "signals");
        assertEquals(14, names.size(), "the shipped signals pack: 8 agent, 3 plugin, 3 strategy routes: " + names);
        return names;
    }

    private static void createInstance(String id, String machine) {
        json(server.post(INSTANCES, "{\"id\": \"" + id + "\", \"machine\": \"" + machine + "\"}"), 201);
    }

    private static void act(String id, String action) {
        json(server.post(INSTANCES + "/" + id + "/actions", "{\"action\": \"" + action + "\"}"), 200);
    }

    private static JsonNode routeOk(String body) {
        return json(server.post(ROUTE, body), 200);
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

}
