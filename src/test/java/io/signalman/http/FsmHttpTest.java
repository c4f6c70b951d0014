package io.signalman.http;

import static io.signalman.TextAssertions.assertContains;
import static io.signalman.http.HttpCalls.decisionRecords;
import static io.signalman.http.HttpCalls.error;
import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.post;
import static io.signalman.http.HttpCalls.send;
import static io.signalman.http.HttpCalls.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * FSM instances and machines over HTTP and the event bus, against the
 * shipped machines review-flow and transaction on a real server with an admin token. The server is
 * shared by the class; every test works on instances of its own (ids from {@link #fresh}).
 */
class FsmHttpTest {

    private static final String INSTANCES = "/v1/fsm/instances";
    private static final String MACHINES = "/v1/fsm/machines";
    private static final String ADMIN_TOKEN = "test-admin-token";
    private static final AtomicInteger IDS = new AtomicInteger();

    @RegisterExtension
    static final TestServer server = TestServer.starting(FsmHttpTest::start);

    // ---- moves: machine review-flow (seed 002), and transaction, a guard with no fallback ------

    @Test
    void creatingAnInstanceReturns201WithItsSnapshotInTheInitialState() {
        String id = "review-" + IDS.incrementAndGet();

        JsonNode s = json(server.post(INSTANCES, "{\"id\": \"" + id + "\", \"machine\": \"review-flow\"}"), 201);

        assertEquals("fsm", s.get("type").asText());
        assertEquals("review-flow", s.get("machine").asText());
        assertEquals("idle", s.get("current_state").asText());
        assertEquals(id, s.get("id").asText());
        assertEquals("idle", state(id));
    }

    /** One action sent to an instance: its name and its payload as JSON (null: the body has none). */
    private record Act(String action, String payload) {
        String body() {
            return "{\"action\": \"" + action + "\"" + (payload == null ? "" : ", \"payload\": " + payload) + "}";
        }
    }

    /**
     * An action that moves a fresh instance of {@code machine} after the actions {@code before}:
     * from and to, and the one rule that decides it.
     */
    private record Move(String why, String machine, List<Act> before, Act act, String from, String to, String rule) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Move> MOVES = List.of(
            new Move("start moves an idle review to running", "review-flow", List.of(), new Act("start", null),
                    "idle", "running", "an idle review starts running"),
            new Move("a review of good quality is done", "review-flow", List.of(new Act("start", null)),
                    new Act("review", "{\"quality\": 0.9}"), "running", "done", "a review of good quality is done"),
            new Move("a review at exactly the bar is done", "review-flow", List.of(new Act("start", null)),
                    new Act("review", "{\"quality\": 0.7}"), "running", "done", "a review of good quality is done"),
            new Move("a review below the bar goes to revising", "review-flow", List.of(new Act("start", null)),
                    new Act("review", "{\"quality\": 0.3}"), "running", "revising",
                    "a review below the quality bar goes back for revision"),
            new Move("a restart runs a revised review again", "review-flow",
                    List.of(new Act("start", null), new Act("review", "{\"quality\": 0.3}")), new Act("restart", null),
                    "revising", "running", "a revised review runs again"),
            // A missing or non-numeric quality reads as NaN (Payload.number); the guard must fail on it,
            // which Drools' numeric >= (Double.compare, NaN above every number) does not do by itself.
            new Move("a review without a payload fails the quality guard and goes to revising", "review-flow",
                    List.of(new Act("start", null)), new Act("review", null), "running", "revising",
                    "a review below the quality bar goes back for revision"),
            new Move("a review with a quality that is not a number goes to revising", "review-flow",
                    List.of(new Act("start", null)), new Act("review", "{\"quality\": \"0.9\"}"), "running", "revising",
                    "a review below the quality bar goes back for revision"),
            new Move("finish ends a running review without a quality check", "review-flow", List.of(new Act("start", null)),
                    new Act("finish", null), "running", "done", "a running review that finishes is done"),
            new Move("begin moves an idle transaction to processing", "transaction", List.of(), new Act("begin", null),
                    "idle", "processing", "an idle transaction begins processing"),
            new Move("an approved commit completes the transaction", "transaction", List.of(new Act("begin", null)),
                    new Act("commit", "{\"approved\": true}"), "processing", "idle",
                    "an approved commit completes the transaction"),
            new Move("an abort rolls the transaction back", "transaction", List.of(new Act("begin", null)),
                    new Act("abort", null), "processing", "idle", "an abort rolls the transaction back"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("MOVES")
    void anActionARuleAllowsMovesTheInstanceByThatRule(Move c) {
        // Given a fresh instance moved by the case's actions before
        String id = fresh(c.machine());
        c.before().forEach(a -> act(id, a));

        // When the action is sent
        JsonNode d = act(id, c.act());

        // Then it moved from, to, by the rule, and the instance is in the new state
        assertMoved(d, c.from(), c.to(), c.rule());
        assertEquals(c.machine(), d.get("machine").asText(), d.toString());
        assertEquals(c.to(), state(id));
    }

    /**
     * An action refused 409 after the actions {@code before}: the error, the state it was refused in
     * (the instance stays there), and the list the refusal names ({@code valid_actions} for an invalid
     * transition, {@code guards} for a guard rejection).
     */
    private record Refusal(String why, String machine, List<Act> before, Act act, String error, String state,
                           String listed, List<String> names) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Refusal> REFUSALS = List.of(
            new Refusal("an action with no rule from the current state is an invalid transition naming the valid actions, sorted",
                    "review-flow", List.of(new Act("start", null)), new Act("start", null), "invalid_transition", "running",
                    "valid_actions", List.of("finish", "review")),
            new Refusal("an unknown action is an invalid transition", "review-flow", List.of(), new Act("launch", null),
                    "invalid_transition", "idle", "valid_actions", List.of("start")),
            new Refusal("a done review has no valid actions", "review-flow",
                    List.of(new Act("start", null), new Act("finish", null)), new Act("restart", null),
                    "invalid_transition", "done", "valid_actions", List.of()),
            new Refusal("an unapproved commit is guard-rejected naming the guard and leaves the transaction processing",
                    "transaction", List.of(new Act("begin", null)), new Act("commit", "{\"approved\": false}"),
                    "guard_rejected", "processing", "guards", List.of("an approved commit completes the transaction")),
            new Refusal("a commit without a payload is guard-rejected", "transaction", List.of(new Act("begin", null)),
                    new Act("commit", null), "guard_rejected", "processing", "guards",
                    List.of("an approved commit completes the transaction")));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REFUSALS")
    void anActionNoRuleAllowsIsRefused409AndChangesNothing(Refusal c) {
        // Given a fresh instance moved by the case's actions before
        String id = fresh(c.machine());
        c.before().forEach(a -> act(id, a));

        // When the action is sent
        JsonNode e = json(server.post(actions(id), c.act().body()), 409);

        // Then it is refused naming the state, the action and the list, and the state is unchanged
        assertEquals(c.error(), e.get("error").asText(), e.toString());
        assertEquals(c.state(), e.get("current_state").asText(), e.toString());
        assertEquals(c.act().action(), e.get("action").asText(), e.toString());
        assertEquals(c.names(), strings(e.get(c.listed())), e.toString());
        assertTrue(e.get("message").isTextual(), e.toString());
        assertEquals(c.state(), state(id));
    }

    // ---- machines -----------------------------------------------------------------------------

    @Test
    void theMachinesListNamesBothMachinesWithInitialStateStatesAndActions() {
        JsonNode list = json(server.get(MACHINES), 200);

        assertTrue(list.isArray(), list.toString());
        JsonNode review = machine(list, "review-flow");
        assertEquals("idle", review.get("initial_state").asText());
        assertEquals(Set.of("idle", "running", "revising", "done"), Set.copyOf(strings(review.get("states"))));
        assertEquals(Set.of("start", "finish", "review", "restart"), Set.copyOf(strings(review.get("actions"))));
        JsonNode transaction = machine(list, "transaction");
        assertEquals("idle", transaction.get("initial_state").asText());
        assertEquals(Set.of("idle", "processing"), Set.copyOf(strings(transaction.get("states"))));
        assertEquals(Set.of("begin", "commit", "abort"), Set.copyOf(strings(transaction.get("actions"))));
    }

    @Test
    void aMachinesTableHasEveryTransitionWithItsGuardAndSalienceAndAMermaidDiagram() {
        JsonNode m = json(server.get(MACHINES + "/review-flow"), 200);

        JsonNode rows = m.get("transitions");
        assertEquals(5, rows.size(), rows.toString());
        for (JsonNode r : rows) {
            for (String f : List.of("from", "action", "to", "guard", "rule", "salience")) {
                assertTrue(r.has(f), "row lacks " + f + ": " + r);
            }
        }
        JsonNode good = row(rows, "a review of good quality is done");
        assertEquals("running", good.get("from").asText());
        assertEquals("review", good.get("action").asText());
        assertEquals("done", good.get("to").asText());
        assertEquals("number(\"quality\") >= 0.7", good.get("guard").asText(), "the guard is its expression, not the rule's name");
        assertEquals(200, good.get("salience").asInt());
        JsonNode revise = row(rows, "a review below the quality bar goes back for revision");
        assertEquals("revising", revise.get("to").asText());
        assertTrue(revise.get("guard").isNull(), "the fallback has no guard: " + revise);
        assertEquals(150, revise.get("salience").asInt());
        JsonNode start = row(rows, "an idle review starts running");
        assertEquals(List.of("idle", "start", "running"),
                List.of(start.get("from").asText(), start.get("action").asText(), start.get("to").asText()));
        // the guarded review is listed before the fallback it is tried before
        List<String> rules = StreamSupport.stream(rows.spliterator(), false).map(r -> r.get("rule").asText()).toList();
        assertTrue(rules.indexOf("a review of good quality is done")
                < rules.indexOf("a review below the quality bar goes back for revision"), rules.toString());

        String mermaid = m.get("mermaid").asText();
        assertTrue(mermaid.startsWith("stateDiagram-v2"), mermaid);
        assertContains(mermaid, "[*] --> idle", "idle --> running : start", "running --> done : review [number('quality') >= 0.7]",
                "running --> revising : review", "revising --> running : restart");
    }

    @Test
    void theTransactionTableHasOnlyAGuardedCommit() {
        JsonNode rows = json(server.get(MACHINES + "/transaction"), 200).get("transitions");

        List<JsonNode> commits = StreamSupport.stream(rows.spliterator(), false)
                .filter(r -> r.get("action").asText().equals("commit")).toList();
        assertEquals(1, commits.size(), rows.toString());
        assertEquals("flag(\"approved\")", commits.get(0).get("guard").asText());
        assertEquals("an approved commit completes the transaction", commits.get(0).get("rule").asText());
    }

    @Test
    void anUnknownMachineIs404() {
        JsonNode e = error(server.get(MACHINES + "/no-such-machine"), 404);

        assertEquals("unknown_machine", e.get("error").asText());
    }

    // ---- instance errors ----------------------------------------------------------------------

    @Test
    void readingAnUnknownInstanceIs404() {
        error(server.get(INSTANCES + "/never-created"), 404);
    }

    @Test
    void actingOnAnUnknownInstanceIs404() {
        error(server.post(actions("never-created"), "{\"action\": \"start\"}"), 404);
    }

    @Test
    void creatingAnExistingIdIs409AndLeavesTheInstanceAsItWas() {
        String id = fresh("review-flow");
        act(id, new Act("start", null));

        JsonNode e = error(server.post(INSTANCES, "{\"id\": \"" + id + "\", \"machine\": \"transaction\"}"), 409);

        assertEquals("instance_exists", e.get("error").asText());
        JsonNode s = json(server.get(INSTANCES + "/" + id), 200);
        assertEquals("review-flow", s.get("machine").asText());
        assertEquals("running", s.get("current_state").asText());
        assertEquals(id, s.get("id").asText(), "GET names the instance as create does");
    }

    @Test
    void creatingAnInstanceOfAnUnknownMachineIs422() {
        JsonNode e = error(server.post(INSTANCES, "{\"id\": \"orphan-" + IDS.incrementAndGet() + "\", \"machine\": \"nope\"}"), 422);

        assertEquals("unknown_machine", e.get("error").asText());
    }

    @Test
    void creatingWithoutAMachineIsRefusedNamingTheField() {
        JsonNode e = error(server.post(INSTANCES, "{\"id\": \"no-machine\"}"), 400);

        assertEquals("machine", e.get("details").get("field").asText());
    }

    @Test
    void anActionBodyWithAnUnknownFieldIsRefusedNamingIt() {
        String id = fresh("review-flow");

        JsonNode e = error(server.post(actions(id), "{\"action\": \"start\", \"paylod\": {}}"), 400);

        assertEquals("paylod", e.get("details").get("field").asText());
        assertEquals("idle", state(id));
    }

    // ---- restore (admin) ----------------------------------------------------------------------

    /** A restore of an idle review that is refused: the snapshot's machine and state, the token, the answer. */
    private record RefusedRestore(String why, String machine, String state, String token, int status, String error) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<RefusedRestore> REFUSED_RESTORES = List.of(
            new RefusedRestore("without a token it is 401", "review-flow", "revising", null, 401, "unauthorized"),
            new RefusedRestore("with a wrong token it is 403", "review-flow", "revising", "not-the-token", 403, "forbidden"),
            new RefusedRestore("a state the machine does not define is 422", "review-flow", "paused", ADMIN_TOKEN, 422,
                    "unknown_state"),
            new RefusedRestore("an unknown machine is 422", "no-such-machine", "idle", ADMIN_TOKEN, 422, "unknown_machine"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REFUSED_RESTORES")
    void aRefusedRestoreChangesNothing(RefusedRestore c) {
        String id = fresh("review-flow");

        JsonNode e = error(put(id, snapshot(c.machine(), c.state()), c.token()), c.status());

        assertEquals(c.error(), e.get("error").asText(), e.toString());
        assertEquals("idle", state(id));
    }

    @Test
    void restoringWithTheAdminTokenSetsTheStateAndTheNextActionAppliesFromIt() {
        // Given an idle review
        String id = fresh("review-flow");

        // When a checkpoint in revising is restored
        JsonNode restored = json(put(id, snapshot("review-flow", "revising"), ADMIN_TOKEN), 200);

        // Then the instance is in revising, and restart moves it on from there
        assertEquals("revising", restored.get("current_state").asText());
        assertEquals("revising", state(id));
        assertMoved(act(id, new Act("restart", null)), "revising", "running", "a revised review runs again");
    }

    // ---- concurrency (compare-and-set) ----------------------------------------------

    @Test
    void sixteenConcurrentBeginsApplyExactlyOnce() {
        // Given an idle transaction
        String id = fresh("transaction");

        // When 16 begins are sent at once
        List<HttpResponse<String>> responses = concurrently(id, 16, i -> "begin");

        // Then exactly one moved it, the other 15 were refused from processing, and it is processing
        List<HttpResponse<String>> moved = responses.stream().filter(r -> r.statusCode() == 200).toList();
        assertEquals(1, moved.size(), () -> statuses(responses));
        assertMoved(json(moved.get(0), 200), "idle", "processing", "an idle transaction begins processing");
        for (HttpResponse<String> r : responses) {
            if (r.statusCode() != 200) {
                JsonNode e = json(r, 409);
                assertEquals("invalid_transition", e.get("error").asText());
                assertEquals("processing", e.get("current_state").asText());
                assertEquals(List.of("abort", "commit"), strings(e.get("valid_actions")));
            }
        }
        assertEquals("processing", state(id));
    }

    @Test
    void concurrentBeginsAndAbortsApplyAsSomeSerialOrder() {
        // Given an idle transaction
        String id = fresh("transaction");

        // When 24 begins and aborts, alternating, are sent at once
        List<HttpResponse<String>> responses = concurrently(id, 24, i -> i % 2 == 0 ? "begin" : "abort");

        // Then every response is a move or a refusal; the moves alternate begin/abort from idle, so the
        // count of moves fixes the final state (no move was lost and none applied twice)
        int begins = 0;
        int aborts = 0;
        for (HttpResponse<String> r : responses) {
            JsonNode d = json(r, r.statusCode() == 200 ? 200 : 409);
            if (r.statusCode() == 200) {
                if (d.get("to").asText().equals("processing")) {
                    assertEquals("idle", d.get("from").asText());
                    begins++;
                } else {
                    assertEquals(List.of("processing", "idle"), List.of(d.get("from").asText(), d.get("to").asText()));
                    aborts++;
                }
            } else {
                assertEquals("invalid_transition", d.get("error").asText());
            }
        }
        assertTrue(begins >= 1, "the first begin in any serial order moves an idle transaction");
        assertTrue(begins - aborts == 0 || begins - aborts == 1,
                "moves alternate from idle: " + begins + " begins, " + aborts + " aborts");
        assertEquals(begins == aborts ? "idle" : "processing", state(id),
                begins + " begins and " + aborts + " aborts moved it");
    }

    // ---- the decision log records state_before ---------------------------------------

    @Test
    void theDecisionLogRecordsTheStateEachActionWasDecidedFrom(@TempDir Path otherData) throws Exception {
        // Given a second server with its own data directory, and a transaction moved and refused
        List<String> ids = new ArrayList<>();
        try (Server second = start(otherData)) {
            json(post(second, INSTANCES, "{\"id\": \"logged\", \"machine\": \"transaction\"}"), 201);
            ids.add(json(post(second, actions("logged"), "{\"action\": \"begin\"}"), 200).get("decision_id").asText());
            ids.add(json(post(second, actions("logged"), "{\"action\": \"commit\", \"payload\": {\"approved\": false}}"), 409)
                    .get("decision_id").asText());
            ids.add(json(post(second, actions("logged"), "{\"action\": \"commit\", \"payload\": {\"approved\": true}}"), 200)
                    .get("decision_id").asText());
        }
        // (close() is the clean shutdown that flushes the log)

        // When the log is read
        List<JsonNode> records = decisionRecords(otherData.resolve("decisions")).stream()
                .filter(r -> r.get("pack").asText().equals("fsm")).toList();

        // Then each action has a record with its input and the state it was decided from
        assertEquals(ids, records.stream().map(r -> r.get("decision_id").asText()).toList());
        List<String> before = List.of("idle", "processing", "processing");
        for (int i = 0; i < records.size(); i++) {
            JsonNode r = records.get(i);
            assertEquals(FsmApi.ACTIONS, r.get("endpoint").asText());
            assertEquals("logged", r.get("input").get("id").asText(), r.toString());
            assertEquals(Json.parse("{\"type\": \"fsm\", \"machine\": \"transaction\", \"current_state\": \""
                    + before.get(i) + "\"}"), r.get("state_before"), r.toString());
        }
        assertEquals("begin", records.get(0).get("input").get("action").asText());
        assertEquals("processing", records.get(0).get("decision").get("to").asText());
        assertEquals("guard_rejected", records.get(1).get("decision").get("error").asText());
        assertEquals(Json.parse("{\"approved\": true}"), records.get(2).get("input").get("payload"));
        assertEquals("idle", records.get(2).get("decision").get("to").asText());
    }

    // ---- the event bus ----------------------------------------------------------------

    @Test
    void theEventBusAddressAppliesAnActionAndRepliesWithTheMove() throws Exception {
        String id = fresh("review-flow");

        Message<Object> reply = server.vertx().eventBus()
                .request(FsmApi.ADDRESS, new JsonObject("{\"id\": \"" + id + "\", \"action\": \"start\", \"payload\": {}}"))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertMoved(Json.parse(((JsonObject) reply.body()).encode()), "idle", "running", "an idle review starts running");
        assertEquals("running", state(id));
    }

    @Test
    void aRefusedActionOnTheEventBusFailsWithCode409AndChangesNothing() throws Exception {
        String id = fresh("review-flow");
        JsonObject body = new JsonObject("{\"id\": \"" + id + "\", \"action\": \"restart\", \"payload\": {}}");

        ExecutionException e = assertThrows(ExecutionException.class, () -> server.vertx().eventBus()
                .request(FsmApi.ADDRESS, body).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));

        ReplyException reply = assertInstanceOf(ReplyException.class, e.getCause());
        assertEquals(409, reply.failureCode());
        JsonNode refusal = Json.parse(reply.getMessage());
        assertEquals("invalid_transition", refusal.get("error").asText());
        assertEquals("idle", refusal.get("current_state").asText());
        assertEquals("idle", state(id));
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Server start(Path dataDir) throws Exception {
        ServerConfig d = TestBundles.seedServer();
        return Server.start(new ServerConfig(d.host(), 0, d.rules(), d.fixtures(), dataDir, ADMIN_TOKEN, d.bodyLimit(),
                d.workers(), d.fsync(), d.logQueue(), 200));
    }

    /** A new instance of {@code machine} with an id no other test uses. */
    private static String fresh(String machine) {
        String id = machine + "-" + IDS.incrementAndGet();
        json(server.post(INSTANCES, "{\"id\": \"" + id + "\", \"machine\": \"" + machine + "\"}"), 201);
        return id;
    }

    private static String actions(String id) {
        return INSTANCES + "/" + id + "/actions";
    }

    private static String snapshot(String machine, String state) {
        return "{\"type\": \"fsm\", \"machine\": \"" + machine + "\", \"current_state\": \"" + state + "\"}";
    }

    /** Sends {@code a} to instance {@code id}, which must move: the 200 decision. */
    private static JsonNode act(String id, Act a) {
        return json(server.post(actions(id), a.body()), 200);
    }

    private static String state(String id) {
        JsonNode s = json(server.get(INSTANCES + "/" + id), 200);
        assertEquals("fsm", s.get("type").asText(), s.toString());
        return s.get("current_state").asText();
    }

    /** A 200 move: from, to, the deciding rule and its reason, and the metadata every decision carries. */
    private static void assertMoved(JsonNode d, String from, String to, String rule) {
        assertEquals(from, d.get("from").asText(), d.toString());
        assertEquals(to, d.get("to").asText(), d.toString());
        assertEquals(rule, d.get("rule").asText(), d.toString());
        assertTrue(d.get("reason").isTextual() && !d.get("reason").asText().isBlank(), d.toString());
        assertEquals(26, d.get("decision_id").asText().length(), d.toString());
        assertTrue(d.get("rules_revision").asText().startsWith("sha256:"), d.toString());
        List<String> fired = StreamSupport.stream(d.get("rules_fired").spliterator(), false)
                .map(f -> f.get("rule").asText()).toList();
        assertEquals(List.of(rule), fired, d.toString());
        assertEquals("fsm", d.get("rules_fired").get(0).get("pack").asText(), d.toString());
        assertTrue(!d.has("error"), d.toString());
    }

    /** Sends {@code n} actions to one instance at once; the responses in the order they were sent. */
    private static List<HttpResponse<String>> concurrently(String id, int n, java.util.function.IntFunction<String> action) {
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpRequest request = HttpRequest.newBuilder(server.uri(actions(id)))
                    .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"action\": \"" + action.apply(i) + "\"}")).build();
            sent.add(HttpCalls.CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
        return sent.stream().map(CompletableFuture::join).toList();
    }

    private static String statuses(List<HttpResponse<String>> responses) {
        return responses.stream().map(r -> r.statusCode() + " " + r.body()).toList().toString();
    }

    private static JsonNode machine(JsonNode list, String name) {
        return StreamSupport.stream(list.spliterator(), false).filter(m -> m.get("name").asText().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(name + " is not listed: " + list));
    }

    private static JsonNode row(JsonNode rows, String rule) {
        return StreamSupport.stream(rows.spliterator(), false).filter(r -> r.get("rule").asText().equals(rule))
                .findFirst().orElseThrow(() -> new AssertionError(rule + " is not in " + rows));
    }

    private static HttpResponse<String> put(String id, String body, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(server.uri(INSTANCES + "/" + id))
                .header("content-type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        return send(b);
    }

}
