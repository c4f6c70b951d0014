package io.signalman.http;

import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.RuleDropper;
import io.signalman.RuleDropper.RuleRef;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A pack whose rules were all removed still decides: its files keep their
 * package, imports and global, so the bundle loads, but no rule declares the agenda groups the
 * pack focuses. Every pack is emptied at once; each endpoint answers as it does when nothing
 * matches, never 500.
 */
class EmptyPackHttpTest {

    @RegisterExtension
    static final TestServer server = TestServer.starting(EmptyPackHttpTest::start);

    @Test
    void aSignalsPackWithNoRoutesAnswersUnroutedNot500() {
        JsonNode d = json(post("/v1/signals/route",
                "{\"agent\":\"reviewer\",\"signal\":{\"kind\":\"user_message\",\"payload\":{\"command\":\"go\"}}}"), 200);

        assertTrue(d.get("unrouted").asBoolean(), d.toString());
        assertTrue(d.get("action").isNull());
        assertTrue(d.get("tier").isNull());
        assertTrue(d.get("rule").isNull());
    }

    @Test
    void aBrokerPackWithNoRulesStillAnswers() {
        JsonNode d = json(post("/v1/broker/route", "{\"envelope\":{\"from_agent\":\"foresight\",\"priority\":\"normal\"},"
                + "\"type\":\"event\",\"subtype\":\"trade.executed\"}"), 200);

        assertTrue(d.get("rule").isNull(), d.toString());
    }

    @Test
    void aDispatchPackWithNoRulesSendsEveryMessageToTheDefaultAgent() {
        JsonNode d = json(post("/v1/dispatch", "{\"channel\":\"telegram\",\"chat\":{\"type\":\"group\",\"id\":\"-100123\"},"
                + "\"sender\":\"U1\",\"message\":\"my order is late\"}"), 200);

        assertEquals("default", d.get("matched_by").asText(), d.toString());
    }

    @Test
    void aHandoffPackWithNoRulesHandsOverByDefault() {
        json(post("/v1/handoff/conversations", "{\"crew\":\"support\",\"id\":\"empty-1\"}"), 201);

        JsonNode d = json(post("/v1/handoff/conversations/empty-1/turns",
                "{\"agent\":\"triage\",\"response\":\"[TECH]\",\"tool_calls\":0}"), 200);

        // No signal rule is left: triage's first handoff target takes over
        assertEquals("agent", d.at("/next/type").asText(), d.toString());
        assertEquals("billing", d.at("/next/agent").asText());
        assertTrue(d.get("signal").isNull());
    }

    @Test
    void anFsmPackWithNoTransitionsRefusesEveryActionAsInvalid() {
        json(post("/v1/fsm/instances", "{\"id\":\"empty-agent\",\"machine\":\"transaction\"}"), 201);

        JsonNode e = json(post("/v1/fsm/instances/empty-agent/actions", "{\"action\":\"begin\",\"payload\":{}}"), 409);

        assertEquals("invalid_transition", e.get("error").asText(), e.toString());
    }

    private static java.net.http.HttpResponse<String> post(String path, String body) {
        return send(HttpRequest.newBuilder(server.uri(path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static Server start(Path tmp) throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        Set<RuleRef> every = RuleDropper.rules(rules).stream().collect(Collectors.toSet());
        RuleDropper.drop(rules, every);
        RuleDropper.dropScenarios(rules);
        return Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withFixtures(tmp.resolve("none"))
                .withData(tmp.resolve("data")));
    }
}
