package io.signalman.http;

import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.app.Server;
import io.signalman.json.Json;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where the seeds' systems behave differently from what Signalman did, Signalman follows them:
 * go-agentic's default handoff order, a parallel group as one handoff that falls
 * through to the default handoff, bracketed spans of at most 100 UTF-8 bytes; and
 * synwire's routes over the payload as a whole. Over HTTP, against the shipped rules.
 */
class PeerFidelityHttpTest {

    private static final String BASE = "/v1/handoff/conversations";
    private static final AtomicInteger IDS = new AtomicInteger();

    @RegisterExtension
    static final TestServer server = TestServer.starting(PeerFidelityHttpTest::start);

    // ---- handoff (go-agentic) -------------------------------------------------------------------

    @Test
    void withoutTargetsTheDefaultHandoffGoesToTheFirstOtherAgentInCrewOrder() {
        // Given the exam crew (teacher, student, reporter), none with handoff_targets
        String id = create("exam");
        turn(id, "teacher", "Who answers? [END_EXAM]");

        // When the reporter answers without a signal
        JsonNode d = turn(id, "reporter", "Nothing to report.");

        // Then the teacher, first in crew order, takes over (not the agent after the reporter)
        assertNext(d, "agent", "teacher");
        assertEquals("without a signal the conversation goes to the default next agent", d.get("rule").asText());
        // And from the first agent, the next one down
        assertNext(turn(id, "teacher", "Let us go on."), "agent", "student");
    }

    @Test
    void aParallelGroupCountsAsOneHandoffFromItsStartToItsNextAgent() {
        // Given support's second_opinion group (billing, tech; next_agent closer)
        String id = create("support");
        JsonNode start = turn(id, "triage", "[SECOND OPINION]");
        assertEquals("parallel", start.at("/next/type").asText());
        assertEquals(1, start.get("handoff_count").asInt());

        turn(id, "tech", "Looks like a bug.");
        JsonNode done = turn(id, "billing", "No charge issue.");

        // Then the group's completion moves to next_agent within the same one handoff
        assertNext(done, "agent", "closer");
        assertEquals(1, done.get("handoff_count").asInt());
    }

    @Test
    void aParallelGroupThatCompletesWithoutNextAgentOrRouteFallsThroughToTheDefaultHandoff() {
        // Given the exam's question panel (student, reporter; no next_agent), started by the teacher
        String id = create("exam");
        turn(id, "teacher", "Question 1 [QUESTION]");
        JsonNode running = get(id);
        assertEquals("parallel_question", running.get("group").asText());
        assertEquals("teacher", running.get("current_agent").asText(), "the agent that started the group");

        // When both members report without a routing signal
        turn(id, "student", "I do not know.");
        JsonNode done = turn(id, "reporter", "Nothing to note.");

        // Then the teacher's default handoff applies (first other agent in crew order), still one handoff
        assertNext(done, "agent", "student");
        assertEquals(1, done.get("handoff_count").asInt());
        assertEquals("running", get(id).get("status").asText());
    }

    @Test
    void aBracketedSpanOfAtMost100BytesMatchesNormalizedAndALongerOneNever() {
        String fits = "[ question" + " ".repeat(100 - "[ question]".length()) + "]";
        String tooLong = "[ question" + " ".repeat(101 - "[ question]".length()) + "]";
        assertEquals(100, fits.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);

        JsonNode matched = turn(create("exam"), "teacher", "Here it comes " + fits);
        assertEquals("parallel", matched.at("/next/type").asText(), matched.toString());
        assertEquals("normalized", matched.get("match_level").asText());

        JsonNode ignored = turn(create("exam"), "teacher", "Here it comes " + tooLong);
        assertNext(ignored, "agent", "student");
        assertTrue(ignored.get("signal").isNull(), ignored.toString());
    }

    @Test
    void aSpanIsMeasuredInUtf8BytesNotInCharacters() {
        // U+3000 (ideographic space) is 3 bytes and collapses like any space when normalized
        String fits = "[question" + "\u3000".repeat(30) + "]";
        String tooLong = "[question" + "\u3000".repeat(31) + "]";
        assertEquals(100, fits.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        assertTrue(tooLong.length() < 50, "well under 100 characters");

        assertEquals("normalized", turn(create("exam"), "teacher", fits).get("match_level").asText());
        assertNext(turn(create("exam"), "teacher", tooLong), "agent", "student");
    }

    // ---- signals: routes over the whole payload (synwire) ------------------------------------

    @Test
    void aPayloadThatIsANonEmptyStringIsRoutedByItsText() {
        JsonNode d = route("\"buy milk\"");

        assertEquals("custom", d.at("/action/type").asText(), d.toString());
        assertEquals("take-note", d.at("/action/value").asText());
        assertEquals("the notetaker keeps a user message that is plain text", d.get("rule").asText());
    }

    @Test
    void aNullOrAbsentPayloadIsRoutedAsNull() {
        for (String payload : new String[] {"null", null}) {
            JsonNode d = route(payload);

            assertEquals("graceful_stop", d.at("/action/type").asText(), d.toString());
            assertEquals("the notetaker stops on a user message without a payload", d.get("rule").asText());
        }
    }

    @Test
    void anEmptyStringOrAnObjectIsNeitherPlainTextNorNull() {
        for (String payload : new String[] {"\"\"", "{\"text\": \"buy milk\"}", "42"}) {
            JsonNode d = route(payload);

            assertTrue(d.get("unrouted").asBoolean(), payload + " -> " + d);
        }
    }

    private static JsonNode route(String payload) {
        String body = "{\"agent\": \"notetaker\", \"signal\": {\"kind\": \"user_message\""
                + (payload == null ? "" : ", \"payload\": " + payload) + "}}";
        return json(post("/v1/signals/route", body), 200);
    }

    private static String create(String crew) {
        String id = crew + "-peer-" + IDS.incrementAndGet();
        json(post(BASE, "{\"crew\":\"" + crew + "\",\"id\":\"" + id + "\"}"), 201);
        return id;
    }

    private static JsonNode turn(String id, String agent, String response) {
        String body = Json.write(Json.object().put("agent", agent).put("response", response).put("tool_calls", 0));
        return json(post(BASE + "/" + id + "/turns", body), 200);
    }

    private static JsonNode get(String id) {
        return json(send(HttpRequest.newBuilder(server.uri(BASE + "/" + id)).GET()), 200);
    }

    private static void assertNext(JsonNode d, String type, String agent) {
        assertEquals(type, d.at("/next/type").asText(), d.toString());
        assertEquals(agent, d.at("/next/agent").isNull() ? null : d.at("/next/agent").asText(), d.toString());
    }

    private static java.net.http.HttpResponse<String> post(String path, String body) {
        return send(HttpRequest.newBuilder(server.uri(path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static Server start(Path data) throws Exception {
        return Server.start(ServerConfig.defaults().withPort(0).withData(data).withFixtures(data.resolve("none")));
    }
}
