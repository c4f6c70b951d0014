package io.signalman.http;

import static io.signalman.http.HttpCalls.error;
import static io.signalman.http.HttpCalls.post;
import static io.signalman.http.HttpCalls.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.BundleException;
import io.signalman.json.Json;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Handoff conversations over HTTP against a real server on a free loopback port: the
 * seed's exam with its parallel groups, the handoff limit, the error-recovery cases of the seed's
 * section 8, the refusals, and concurrent turns on one conversation.
 */
class HandoffHttpTest {

    private static final String BASE = "/v1/handoff/conversations";

    @RegisterExtension
    static final TestServer server = TestServer.seed();

    @Test
    void theExamRunsThroughBothParallelGroupsToTheReportersDone() {
        String id = create("exam", "exam-flow");

        JsonNode q = turnOk(id, "teacher", "Question 1: what is 2+2? [QUESTION]", 0);
        assertNext(q, "parallel", null);
        assertEquals("parallel_question", q.at("/next/group/id").asText());
        assertEquals(List.of("student", "reporter"), strings(q.at("/next/group/pending")));
        assertEquals(1, q.get("handoff_count").asInt());
        assertEquals("the teacher's question goes to the student and the reporter together", q.get("rule").asText());

        JsonNode a = turnOk(id, "student", "It is 4. [ANSWER]", 0);
        assertNext(a, "parallel", null);
        assertEquals(List.of("reporter"), strings(a.at("/next/group/pending")));
        assertEquals(1, a.get("handoff_count").asInt());

        // The group is complete: it has no next_agent, so the student's [ANSWER] decides where it goes
        JsonNode ok = turnOk(id, "reporter", "Noted. [OK]", 0);
        assertNext(ok, "parallel", null);
        assertEquals("parallel_answer", ok.at("/next/group/id").asText());
        assertEquals(2, ok.get("handoff_count").asInt());

        turnOk(id, "reporter", "[ok]", 0);
        JsonNode end = turnOk(id, "teacher", "Correct. That is all. [END_EXAM]", 0);
        assertNext(end, "agent", "reporter");
        // The answer panel counted once, at its start: leaving it for the reporter costs nothing more
        assertEquals(2, end.get("handoff_count").asInt());

        JsonNode done = turnOk(id, "reporter", "Score 1/1. [DONE]", 0);
        assertNext(done, "terminate", "reporter");
        assertEquals("[DONE]", done.get("signal").asText());
        assertEquals("exact", done.get("match_level").asText());
        assertEquals("terminated", getOk(id).get("status").asText());
    }

    @Test
    void aMemberThatCalledToolsRerunsAndTheGroupKeepsWaitingForIt() {
        String id = create("exam", null);
        turnOk(id, "teacher", "[QUESTION]", 0);

        JsonNode rerun = turnOk(id, "student", "let me compute", 2);
        assertNext(rerun, "rerun", "student");
        assertEquals(1, rerun.get("handoff_count").asInt());
        JsonNode still = turnOk(id, "reporter", "[OK]", 0);
        assertEquals(List.of("student"), strings(still.at("/next/group/pending")));
    }

    @Test
    void theHandoffLimitEndsTheConversationAndUserInputStartsANewCount() {
        String id = create("support", "limit");
        turnOk(id, "triage", "[TECH]", 0);
        turnOk(id, "tech", "[TRIAGE]", 0);
        turnOk(id, "triage", "[TECH]", 0);
        JsonNode fourth = turnOk(id, "tech", "[TRIAGE]", 0);
        assertEquals(4, fourth.get("handoff_count").asInt());

        JsonNode limit = turnOk(id, "triage", "[TECH]", 0);
        assertNext(limit, "end", null);
        assertTrue(limit.at("/next/limit_reached").asBoolean());
        assertEquals(5, limit.get("handoff_count").asInt());
        assertEquals(5, limit.get("max_handoffs").asInt());
        assertEquals(409, turn(id, "triage", "[TECH]", 0).statusCode());

        JsonNode fresh = parse(server.post(BASE + "/" + id + "/user-input", "{\"text\": \"still broken\"}").body());
        assertEquals(0, fresh.get("handoff_count").asInt());
        assertEquals("triage", fresh.get("current_agent").asText());
        assertEquals(1, turnOk(id, "triage", "[TECH]", 0).get("handoff_count").asInt());
    }

    @Test
    void theDefaultHandoffGoesThroughHandoffTargetsToTheTerminalCloser() {
        String id = create("support", null);
        assertNext(turnOk(id, "triage", "Let me see.", 0), "agent", "billing");
        assertNext(turnOk(id, "billing", "Refund issued.", 0), "agent", "closer");
        JsonNode end = turnOk(id, "closer", "Anything else?", 0);
        assertNext(end, "end", "closer");
        assertFalse(end.at("/next/limit_reached").asBoolean());
    }

    @Test
    void anAgentWaitingForASignalPausesUntilUserInputResumesIt() {
        String id = create("support", null);
        turnOk(id, "triage", "[  tech ]", 0);
        assertNext(turnOk(id, "tech", "Please send the logs.", 0), "pause", "tech");
        assertEquals(409, turn(id, "tech", "still here", 0).statusCode());
        JsonNode resumed = parse(server.post(BASE + "/" + id + "/user-input", "{}").body());
        assertEquals("tech", resumed.get("current_agent").asText());
        assertNext(turnOk(id, "tech", "Found it. [FIXED]", 0), "agent", "closer");
    }

    @Test
    void aSecondOpinionGroupMovesOnToItsNextAgent() {
        String id = create("support", null);
        JsonNode p = turnOk(id, "triage", "[SECOND OPINION]", 0);
        assertEquals("second_opinion", p.at("/next/group/id").asText());
        assertTrue(p.at("/next/group/wait_for_all").asBoolean());
        assertEquals(60, p.at("/next/group/timeout_seconds").asInt());
        turnOk(id, "tech", "Looks like a bug.", 0);
        assertNext(turnOk(id, "billing", "No charge issue.", 0), "agent", "closer");
    }

    // ---- seed section 8: error recovery ---------------------------------------------------------

    @Test
    void aTerminationSignalWithNoTargetEndsTheConversation() {
        String id = create("support", null);
        turnOk(id, "triage", "[TECH]", 0);
        turnOk(id, "tech", "[FIXED]", 0);
        JsonNode d = turnOk(id, "closer", "All set. [COMPLETE]", 0);
        assertNext(d, "terminate", "closer");
        assertEquals("the closer's complete ends the conversation", d.get("rule").asText());
    }

    @Test
    void aSignalRoutingToAnUnknownAgentIsRefusedAtStartWithItsFileAndLine() throws Exception {
        Path rules = TestBundles.copyOfRules(Files.createTempDirectory(server.dir(), "unknown-target"));
        TestBundles.edit(rules.resolve("handoff/support.drl"), "decide.route($said, \"billing\")",
                "decide.route($said, \"unknown_agent\")");
        BundleException e = assertThrows(BundleException.class, () -> Server.start(TestBundles.seedServer()
                .withRules(rules).withData(server.dir().resolve("refused"))));
        assertTrue(e.errors().stream().anyMatch(err -> err.file().equals("handoff/support.drl") && err.line() > 0
                && err.message().contains("\"unknown_agent\"")), e.errors().toString());
    }

    // ---- refusals ---------------------------------------------------------------------------------

    @Test
    void unknownConversationIs404() {
        HttpResponse<String> r = turn("no-such-conversation", "teacher", "[QUESTION]", 0);
        assertEquals(404, r.statusCode());
        assertEquals("conversation_not_found", parse(r.body()).get("error").asText());
        assertEquals(404, server.post(BASE + "/no-such/user-input", "{}").statusCode());
    }

    @Test
    void aTurnFromAnAgentThatIsNotExpectedIs409AndChangesNothing() {
        String id = create("exam", null);
        HttpResponse<String> r = turn(id, "student", "[ANSWER]", 0);
        assertEquals(409, r.statusCode());
        JsonNode err = parse(r.body());
        assertEquals("unexpected_agent", err.get("error").asText());
        assertEquals("teacher", err.at("/details/current_agent").asText());
        turnOk(id, "teacher", "[QUESTION]", 0);
        turnOk(id, "student", "[ANSWER]", 0);
        assertEquals(409, turn(id, "student", "[ANSWER] again", 0).statusCode(), "a member reports once");
        assertEquals(409, turn(id, "teacher", "[QUESTION]", 0).statusCode(), "the teacher is not in the group");
    }

    @Test
    void anUnknownCrewIs422UnknownCrewAsAnUnknownMachineIs() {
        JsonNode e = error(server.post(BASE, "{\"crew\": \"nope\"}"), 422);

        assertEquals("unknown_crew", e.get("error").asText());
        assertTrue(e.get("message").asText().contains("exam"), "names the crews that exist: " + e);
    }

    @Test
    void badRequestsAre400NamingTheField() {
        assertEquals("crew", error(server.post(BASE, "{}"), 400).at("/details/field").asText());
        assertEquals("id", error(server.post(BASE, "{\"crew\": \"exam\", \"id\": \"a b\"}"), 400).at("/details/field").asText());
        String id = create("exam", null);
        assertEquals("tool_calls", error(server.post(BASE + "/" + id + "/turns",
                "{\"agent\": \"teacher\", \"response\": \"x\", \"tool_calls\": -1}"), 400).at("/details/field").asText());
        assertEquals("response", error(server.post(BASE + "/" + id + "/turns", "{\"agent\": \"teacher\"}"), 400)
                .at("/details/field").asText());
        assertEquals("malformed_json", error(server.post(BASE + "/" + id + "/turns", "{"), 400).get("error").asText());
        error(server.post(BASE + "/" + id + "/turns", "{\"agent\": \"teacher\", \"response\": \"\", \"extra\": 1}"), 400);
        assertEquals(409, server.post(BASE, "{\"crew\": \"exam\", \"id\": \"" + id + "\"}").statusCode());
    }

    @Test
    void everyTurnIsLoggedWithTheStateItWasDecidedFrom() throws Exception {
        // A server of its own: closing it is what flushes its decision log
        Path own = Files.createTempDirectory(server.dir(), "logged");
        try (Server one = Server.start(TestBundles.seedServer().withData(own))) {
            post(one, BASE, "{\"crew\": \"exam\", \"id\": \"logged\"}");
            post(one, BASE + "/logged/turns", "{\"agent\": \"teacher\", \"response\": \"[QUESTION]\"}");
        }
        List<DecisionRecord> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(own.resolve("decisions"))) {
            for (Path f : files.toList()) {
                for (String line : Files.readAllLines(f)) {
                    records.add(DecisionRecord.fromJson(parse(line)));
                }
            }
        }
        assertEquals(1, records.size());
        assertEquals("logged", records.get(0).input().get("conversation_id").asText());
        assertEquals("teacher", records.get(0).stateBefore().get("current_agent").asText());
        assertEquals(0, records.get(0).stateBefore().get("handoff_count").asInt());
        assertEquals("parallel", records.get(0).decision().at("/next/type").asText());
    }

    // ---- concurrency --------------------------------------------------------------------------------

    @Test
    void concurrentTurnsForTheSameAgentApplyOnceAndTheRestAreRefused() {
        String id = create("exam", null);
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            all.add(CompletableFuture.supplyAsync(() -> turn(id, "teacher", "[QUESTION]", 0)));
        }
        List<Integer> statuses = all.stream().map(CompletableFuture::join).map(HttpResponse::statusCode).toList();
        assertEquals(1, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        assertEquals(7, statuses.stream().filter(s -> s == 409).count(), statuses.toString());
        assertEquals(1, getOk(id).get("handoff_count").asInt());
    }

    @Test
    void concurrentMembersOfAGroupAreBothCountedAndTheGroupCompletesOnce() {
        for (int round = 0; round < 10; round++) {
            String id = create("exam", null);
            turnOk(id, "teacher", "[QUESTION]", 0);
            CompletableFuture<HttpResponse<String>> s = CompletableFuture.supplyAsync(() -> turn(id, "student", "[ANSWER]", 0));
            CompletableFuture<HttpResponse<String>> r = CompletableFuture.supplyAsync(() -> turn(id, "reporter", "[OK]", 0));
            List<JsonNode> both = List.of(parse(s.join().body()), parse(r.join().body()));
            // one of them found the other pending, the other completed the group
            assertEquals(1, both.stream().filter(d -> d.at("/next/group/pending").size() == 1).count(), both.toString());
            assertEquals(1, both.stream().filter(d -> "parallel_answer".equals(d.at("/next/group/id").asText())).count(),
                    both.toString());
            JsonNode after = getOk(id);
            assertEquals("parallel_answer", after.get("group").asText(), after.toString());
            assertEquals(2, after.get("handoff_count").asInt());
        }
    }

    @Test
    void theTurnAddressOnTheEventBusDecidesLikeTheEndpoint() throws Exception {
        String id = create("exam", "bus");
        JsonObject reply = server.vertx().eventBus().<JsonObject>request(HandoffApi.TURN_ADDRESS, new JsonObject()
                        .put("conversation_id", id).put("agent", "teacher").put("response", "[QUESTION]").put("tool_calls", 0))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).body();
        assertEquals("parallel", reply.getJsonObject("next").getString("type"));
        assertEquals(1, reply.getInteger("handoff_count"));
    }

    // ---- helpers --------------------------------------------------------------------------------------

    private static String create(String crew, String id) {
        HttpResponse<String> r = server.post(BASE, "{\"crew\": \"" + crew + "\"" + (id == null ? "" : ", \"id\": \"" + id + "\"") + "}");
        assertEquals(201, r.statusCode(), r.body());
        JsonNode n = parse(r.body());
        assertEquals(0, n.get("handoff_count").asInt());
        return n.get("id").asText();
    }

    private static HttpResponse<String> turn(String id, String agent, String response, int tools) {
        ObjectBody b = new ObjectBody(agent, response, tools);
        return server.post(BASE + "/" + id + "/turns", b.json());
    }

    private record ObjectBody(String agent, String response, int tools) {
        String json() {
            return Json.write(Json.object().put("agent", agent).put("response", response).put("tool_calls", tools));
        }
    }

    private static JsonNode turnOk(String id, String agent, String response, int tools) {
        HttpResponse<String> r = turn(id, agent, response, tools);
        assertEquals(200, r.statusCode(), r.body());
        return parse(r.body());
    }

    private static JsonNode getOk(String id) {
        HttpResponse<String> r = server.get(BASE + "/" + id);
        assertEquals(200, r.statusCode(), r.body());
        return parse(r.body());
    }

    private static void assertNext(JsonNode d, String type, String agent) {
        assertEquals(type, d.at("/next/type").asText(), d.toString());
        if (agent != null) {
            assertEquals(agent, d.at("/next/agent").asText(), d.toString());
        }
    }

    private static JsonNode parse(String text) {
        try {
            return Json.parse(text);
        } catch (io.signalman.json.InputException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

}
