package io.signalman.http;

import static io.signalman.http.HttpCalls.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.dispatch.DispatchExamples;
import io.signalman.json.Json;
import io.signalman.packs.Packs;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code POST /v1/dispatch} and the {@code signalman.dispatch} address against a
 * real server on a free loopback port: seed 004's examples end to end (a bad field and malformed JSON
 * are refused as on every endpoint, in {@link BadInputTest}).
 */
class DispatchHttpTest {

    private static final String DISPATCH = "/v1/dispatch";

    @RegisterExtension
    static final TestServer server = TestServer.seed();

    // ---- seed 004's examples --------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.signalman.dispatch.DispatchExamples#ALL")
    void aMessageGoesToTheAgentItsRuleOrTheDefaultNamesOverHttp(DispatchExamples.Dispatched c) {
        JsonNode d = ok(server.post(DISPATCH, Json.write(Packs.DISPATCH.inputJson(c.message()))));

        assertEquals(c.agent(), d.get("agent_id").asText());
        assertEquals(c.matchedBy(), d.get("matched_by").asText());
        assertEquals(c.channel(), d.get("channel").asText());
        assertEquals(c.account(), d.get("account_id").asText());
        assertTrue(d.has("rule"), d.toString());
        assertEquals(c.rule(), d.get("rule").isNull() ? null : d.get("rule").asText());
        d.get("rules_fired").forEach(r -> assertEquals("dispatch", r.get("pack").asText(), d.toString()));
        assertTrue(c.rule() == null || !d.get("rules_fired").isEmpty(), d.toString());
        assertTrue(d.get("decision_id").isTextual() && d.get("rules_revision").asText().startsWith("sha256:"));
    }

    @Test
    void theResponseCarriesSessionPolicyKeyAndModel() throws Exception {
        JsonNode d = ok(server.post(DISPATCH, "{\"channel\": \"telegram\", \"sender\": \"u9\", \"message\": \"```go\\nx\\n```\","
                + " \"history\": [{\"role\": \"user\"}, {\"role\": \"assistant\", \"tool_calls\": 2}]}"));

        assertEquals("default", d.get("matched_by").asText());
        assertEquals("assistant", d.get("agent_id").asText());
        assertEquals(Json.parse("[\"chat\",\"topic\",\"sender\"]"), d.get("session_policy").get("dimensions"));
        assertTrue(d.get("session_policy").get("identity_links").has("vip-alice"));
        assertTrue(d.get("session_key").asText().startsWith("agent:assistant:"));
        JsonNode model = d.get("model");
        assertEquals(0.5, model.get("score").asDouble(), "0.40 for the code block + 0.10 for two tool calls");
        assertFalse(model.get("light").asBoolean());
        assertEquals("claude-sonnet-4", model.get("name").asText());
        assertEquals(1, model.get("features").get("code_block_count").asInt());
        assertEquals(2, model.get("features").get("recent_tool_calls").asInt());
        assertEquals(2, model.get("features").get("conversation_depth").asInt());
    }

    @Test
    void identityLinkedSendersShareASessionKeyOverHttp() {
        String key1 = ok(server.post(DISPATCH, "{\"channel\": \"telegram\", \"sender\": \"555\"}")).get("session_key").asText();
        String key2 = ok(server.post(DISPATCH, "{\"channel\": \"telegram\", \"sender\": \"Alice@Example.com\"}")).get("session_key").asText();
        assertEquals(key1, key2);
    }

    @Test
    void theSessionScopeShowsWhyTwoIdentityLinkedMessagesShareASession() throws Exception {
        // Given two ids of one person, linked in config.json as vip-alice, in two telegram chats
        JsonNode a = ok(server.post(DISPATCH, "{\"channel\": \"telegram\", \"chat\": {\"id\": \"7\"}, \"sender\": \"555\"}"));
        JsonNode b = ok(server.post(DISPATCH, "{\"channel\": \"Telegram\", \"chat\": {\"id\": \"8\"}, \"sender\": \"Alice@Example.com\"}"));

        // Then both carry the same scope: the VIP rule keeps only the sender, after identity links
        JsonNode want = Json.parse("{\"agent\": \"concierge\", \"channel\": \"telegram\", \"account\": \"default\","
                + " \"sender\": \"vip-alice\"}");
        assertEquals(want, a.get("session_scope"), a.toString());
        assertEquals(want, b.get("session_scope"));
        assertEquals(a.get("session_key"), b.get("session_key"));
        // And a stranger in the same chat gets the chat in its scope (the config's dimensions)
        JsonNode c = ok(server.post(DISPATCH, "{\"channel\": \"telegram\", \"chat\": {\"id\": \"7\"}, \"sender\": \"u-9\"}"));
        assertEquals(Json.parse("{\"agent\": \"assistant\", \"channel\": \"telegram\", \"account\": \"default\","
                + " \"chat\": \"direct:7\", \"topic\": \"\", \"sender\": \"u-9\"}"), c.get("session_scope"), c.toString());
    }

    @Test
    void aRuleThatOverridesTheDimensionsScopesTheSessionToThemAndExplainShowsIt() throws Exception {
        // Given the community guild's rule: one session per chat, whoever writes
        String base = "{\"channel\": \"discord\", \"space\": {\"type\": \"guild\", \"id\": \"g-community\"},"
                + " \"chat\": {\"type\": \"channel\", \"id\": \"c1\"}, \"sender\": \"%s\"}";
        JsonNode one = ok(server.post(DISPATCH + "?explain=true", String.format(base, "u1")));
        JsonNode other = ok(server.post(DISPATCH, String.format(base, "u2")));

        // Then the scope has no sender, which is why two members share one session
        assertEquals(Json.parse("{\"agent\": \"community\", \"channel\": \"discord\", \"account\": \"default\","
                + " \"space\": \"guild:g-community\", \"chat\": \"channel:c1\"}"), one.get("session_scope"), one.toString());
        assertEquals(one.get("session_key"), other.get("session_key"));
        assertTrue(one.has("explain"), "the explained decision shows the scope beside its explanation");
    }

    @Test
    void aCjkMessageIsCountedPerCharacterOverHttp() {
        JsonNode d = ok(server.post(DISPATCH, "{\"channel\": \"telegram\", \"message\": \"" + "我想了解一下这个系统".repeat(6) + "\"}"));
        assertEquals(60, d.get("model").get("features").get("token_estimate").asInt());
        assertEquals(0.15, d.get("model").get("score").asDouble());
        assertTrue(d.get("model").get("light").asBoolean());
    }

    @Test
    void explainListsTheDispatchRulesInFiringOrder() {
        JsonNode d = ok(server.post(DISPATCH + "?explain=true", "{\"channel\": \"telegram\", \"chat\": {\"type\": \"group\", \"id\": \"-100123\"}}"));
        JsonNode explain = d.get("explain");
        assertEquals("the VIP customer goes to the concierge from any channel", explain.get(0).get("rule").asText());
        assertEquals("not-matched", explain.get(0).get("status").asText());
        assertEquals("fired", explain.get(1).get("status").asText());
    }

    @Test
    void everyDispatchIsWrittenToTheDecisionLog() throws Exception {
        ok(server.post(DISPATCH, "{\"id\": \"logged-dispatch\", \"channel\": \"line\"}"));
        server.server().close();
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(server.dir().resolve("decisions"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                lines.addAll(Files.readAllLines(p));
            }
        }
        server.restart();
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"logged-dispatch\"") && l.contains("\"endpoint\":\"/v1/dispatch\"")
                && l.contains("\"pack\":\"dispatch\"")));
    }

    // ---- the event bus --------------------------------------------------------------------------

    @Test
    void theEventBusAddressDispatchesLikeHttp() throws Exception {
        Message<Object> reply = server.vertx().eventBus().request("signalman.dispatch",
                new JsonObject("{\"channel\": \"telegram\", \"chat\": {\"type\": \"group\", \"id\": \"-100123\"}}"))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        JsonNode d = Json.parse(((JsonObject) reply.body()).encode());
        assertEquals("dispatch.rule:support-group", d.get("matched_by").asText());
    }

    @Test
    void aBadEventBusDispatchFailsWithCode400() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> server.vertx().eventBus()
                .request("signalman.dispatch", new JsonObject("{\"channel\": \"telegram\", \"bogus\": 1}"))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertEquals(400, assertInstanceOf(ReplyException.class, e.getCause()).failureCode());
    }

    // ---- helpers --------------------------------------------------------------------------------

    private static JsonNode ok(HttpResponse<String> response) {
        return json(response, 200);
    }

}
