package io.signalman.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.cli.CliRunner;
import io.signalman.http.Brake;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole live trial through the real server, as an operator drives it: a draft that sends trade
 * messages elsewhere runs in shadow (clients keep the live answer, the divergences are counted and
 * grouped), then as a canary at 10% and 50% (a sender keeps its arm, the 10% are among the 50%),
 * until its stop limit trips and every request is live again; a second trial is promoted through
 * the reload gate and the activation record; a reload of the live rules ends a third. One server
 * for the class (the methods run in order, each leaving no trial running).
 *
 * <p>The server's broker pack knows the test facts of {@link Brake}, so the draft tried can hold
 * rules that throw or run past their deadline, written in the rule language like any other.
 *
 * <p>NOTE(time): a draft's save compiles it and runs every scenario, and a trial's start compiles
 * it again, so the trials beside the first live rules all try one draft ({@link #tried}); only a
 * change of the live rules (the reload, the restart on other rules, the promotion) needs a new
 * one. Senders are picked by their bucket, a few of each kind, instead of many at random.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TrialsApiTest {

    private static final String TOKEN = "trials-test-token";
    private static final String ROUTING = "broker/routing.drl";
    private static final String TRADE_RULE = "trade messages go to VP Trading";
    private static final String REVIEW_FLOW = "fsm/review-flow.drl";
    private static final String MANAGER_RULE = "everything else goes to the sender's manager";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;
    private static Server server;
    private static ServerConfig config;
    private static String base;
    /**
     * The draft tried beside the first live rules: trade messages go to VP Engineering, memory
     * commits fan out (which breaks an invariant), a {@code test.fails} message makes a rule throw
     * and a {@code test.runaway} one runs a rule past any deadline; a review is done only at a
     * quality of 0.9 instead of 0.7.
     */
    private static String tried;

    @BeforeAll
    static void start() throws Exception {
        config = TestBundles.editableSeedServer(dir).withAdminToken(TOKEN);
        restart();
        tried = draftWith(TrialsApiTest::triedRouting);
        String review = ok(200, workbench("GET", "drafts/" + tried + "/file?path=" + REVIEW_FLOW, null)).get("text").asText();
        ok(200, workbench("PUT", "drafts/" + tried + "/file?path=" + REVIEW_FLOW, Json.object()
                .put("text", review.replace("number(\"quality\") >= 0.7", "number(\"quality\") >= 0.9")).put("version", 2)));
    }

    /** The broker's routing of {@link #tried}. */
    private static String triedRouting(String text) {
        String failing = """
                rule "a test message that fails makes a rule throw"
                    @reason("test draft: the condition throws, as a rule meeting data it never expected does")
                    agenda-group "route" activation-group "route" salience 1100
                when
                    $m : Message( subtype == "test.fails" )
                    Brake( fails($m.subtype) )
                then
                    decide.primary("openclaw");
                end

                """;
        String runaway = """

                rule "a runaway test message fans out for every tick, slowly"
                    @reason("test draft: each firing takes a few milliseconds, and there are more than the firing bound")
                    agenda-group "fan-out"
                when
                    $m : Message( subtype == "test.runaway" )
                    $b : Brake()
                    $t : Tick() from $b.ticks($m.subtype)
                then
                    decide.fanOut($t.crawl());
                end
                """;
        String out = text.replace("decide.primary(\"vp-trading\")", "decide.primary(\"vp-engineering\")")
                .replace("decide.primary(\"memory-service\");", "decide.primary(\"memory-service\").fanOut(\"mission-control\");")
                .replace("import io.signalman.broker.OrgChart;\n", "import io.signalman.broker.OrgChart;\nimport io.signalman.http.Brake;\n"
                        + "import io.signalman.http.Tick;\n")
                .replace("rule \"critical messages go to openclaw and knox\"", failing + "rule \"critical messages go to openclaw and knox\"");
        assertNotEquals(text, out);
        return out + runaway;
    }

    /** The server (again) on the same folders: a trial is durable state. */
    private static void restart() throws Exception {
        if (server != null) {
            server.close();
        }
        server = Server.start(config, Brake.packs());
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void aTrialRunsInShadowThenAsAGrowingCanaryUntilItsLimitStopsIt() throws Exception {
        String live = server.engine().bundle().revision();
        // Given a draft in which trade messages go to VP Engineering
        String draft = tried;

        // When it starts in shadow
        JsonNode started = ok(201, send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "shadow")));
        String id = started.get("id").asText();
        assertEquals("running", started.get("state").asText());
        assertEquals(live, started.get("live_revision").asText());
        String candidate = started.get("candidate_revision").asText();
        assertNotEquals(live, candidate);

        // Then every client still gets the live answer, and each request is compared off its path
        for (int i = 0; i < 20; i++) {
            JsonNode trade = route("sender-" + i, "trade.executed");
            assertEquals("vp-trading", trade.get("primary_recipients").get(0).asText());
            assertEquals(live, trade.get("rules_revision").asText());
            assertEquals(live, route("sender-" + i, "service.offline").get("rules_revision").asText());
        }
        JsonNode shadow = waitFor(id, t -> t.get("comparisons").asLong() >= 40);
        assertEquals(40, shadow.get("comparisons").asLong());
        assertEquals(20, shadow.get("diverged").asLong());
        assertEquals(0.5, shadow.get("agreement_rate").asDouble());
        assertEquals(40, shadow.get("arms").get("live").get("answered").asLong());
        assertEquals(0, shadow.get("arms").get("candidate").get("answered").asLong());
        assertEquals(40, shadow.get("arms").get("candidate").get("decisions").asLong());
        // ... grouped by the rules that decided, with examples showing what differs
        assertEquals(1, shadow.get("divergences").size(), shadow.toPrettyString());
        JsonNode group = shadow.get("divergences").get(0);
        assertEquals(TRADE_RULE, group.get("live_rule").asText());
        assertEquals(TRADE_RULE, group.get("candidate_rule").asText());
        assertEquals(20, group.get("count").asLong());
        JsonNode example = group.get("examples").get(0);
        assertEquals("vp-trading", example.get("live").get("primary_recipients").get(0).asText());
        assertEquals("vp-engineering", example.get("candidate").get("primary_recipients").get(0).asText());
        assertTrue(example.get("diff").has("primary_recipients"), example.toPrettyString());

        // When it becomes a canary at 10%, then 50%
        JsonNode ten = ok(200, send("PATCH", "/v1/trials/" + id, Json.object().put("mode", "canary").put("percent", 10)));
        assertEquals("canary", ten.get("mode").asText());
        Set<String> senders = senders(id);
        Map<String, String> arm10 = arms(senders);
        // ... a sender keeps its arm, request after request
        assertEquals(arm10, arms(senders));
        ok(200, send("PATCH", "/v1/trials/" + id, Json.object().put("percent", 50)));
        Map<String, String> arm50 = arms(senders);
        assertEquals(arm50, arms(senders));

        // Then the candidate answers exactly the senders whose bucket is inside, the 10% among the 50%
        Set<String> in10 = inCandidate(arm10);
        Set<String> in50 = inCandidate(arm50);
        for (String s : senders) {
            assertEquals(Buckets.inside(id, s, 10), in10.contains(s), s);
            assertEquals(Buckets.inside(id, s, 50), in50.contains(s), s);
        }
        assertFalse(in10.isEmpty());
        assertTrue(in50.containsAll(in10), "the 10% bucket is a subset of the 50% one");
        assertTrue(in50.size() > in10.size() && in50.size() < senders.size(), in10.size() + " then " + in50.size());

        // ... and the decision log records the arm and the revision of every decision
        String answeredByCandidate = routeId(in50.iterator().next());
        String answeredByLive = routeId(senders.stream().filter(s -> !in50.contains(s)).findFirst().orElseThrow());
        JsonNode candidateRecord = record(answeredByCandidate);
        assertEquals(Json.object().put("id", id).put("arm", "candidate"), candidateRecord.get("trial"));
        assertEquals(candidate, candidateRecord.get("rules_revision").asText());
        JsonNode liveRecord = record(answeredByLive);
        assertEquals("live", liveRecord.get("trial").get("arm").asText());
        assertEquals(live, liveRecord.get("rules_revision").asText());

        // When a stop limit is set that the next diverging requests pass
        // (once every request answered so far is compared: comparisons are made off the requests' path)
        JsonNode now = waitFor(id, t -> t.get("comparisons").asLong() == t.get("arms").get("live").get("answered").asLong()
                + t.get("arms").get("candidate").get("answered").asLong());
        long comparisons = now.get("comparisons").asLong();
        JsonNode limited = ok(200, send("PATCH", "/v1/trials/" + id, Json.object().set("stop", Json.object()
                .put("max_divergence_rate", 0.1).put("min_decisions", comparisons + 10))));
        assertEquals("running", limited.get("state").asText());
        for (int i = 0; i < 10; i++) {
            route("late-" + i, "trade.executed");
        }

        // Then the trial stops by itself, saying why, and every request is decided by the live rules again
        JsonNode stopped = waitFor(id, t -> !t.get("state").asText().equals("running"));
        assertEquals("stopped", stopped.get("state").asText());
        assertTrue(stopped.get("stop_reason").asText().contains("max_divergence_rate"), stopped.get("stop_reason").asText());
        for (String s : in50) {
            JsonNode answer = route(s, "trade.executed");
            assertEquals(live, answer.get("rules_revision").asText());
            assertNull(record(answer.get("decision_id").asText()).get("trial"));
        }

        // ... and /metrics shows the trial's figures labelled by arm
        String metrics = send("GET", "/metrics", null).body();
        JsonNode last = ok(200, send("GET", "/v1/trials/" + id, null));
        for (String arm : new String[] {"live", "candidate"}) {
            assertTrue(metrics.contains("signalman_trial_decisions_total{arm=\"" + arm + "\"} "
                    + (double) last.get("arms").get(arm).get("decisions").asLong()), arm + " in\n" + metrics);
            assertTrue(metrics.contains("signalman_trial_answered_total{arm=\"" + arm + "\"} "
                    + (double) last.get("arms").get(arm).get("answered").asLong()), arm + " in\n" + metrics);
        }
        assertTrue(metrics.contains("signalman_trial_divergences_total " + (double) last.get("diverged").asLong()), metrics);

        // A stopped trial may still be aborted (and then it is over)
        JsonNode aborted = ok(200, send("POST", "/v1/trials/" + id + "/abort", Json.object().put("reason", "sent trades astray")));
        assertEquals("aborted", aborted.get("state").asText());
        assertEquals(409, send("POST", "/v1/trials/" + id + "/abort", null).statusCode());
    }

    @Test
    @Order(2)
    void aCanaryCandidateThatThrowsOrRunsPastItsDeadlineFallsBackToTheLiveAnswerUntilItsErrorRateStopsIt() throws Exception {
        String live = server.engine().bundle().revision();
        // Given the draft as a canary for every sender, stopped when over half its decisions fail (from 5 on)
        String id = ok(201, send("POST", "/v1/trials", Json.object().put("draft", tried).put("mode", "canary").put("percent", 100)
                .set("stop", Json.object().put("max_candidate_error_rate", 0.5).put("min_decisions", 5)))).get("id").asText();
        String candidate = ok(200, send("GET", "/v1/trials/" + id, null)).get("candidate_revision").asText();

        // When the candidate answers a memory commit, it answers for real, and the invariant it breaks is shown
        JsonNode commit = route("committer", "memory.committed");
        assertEquals(candidate, commit.get("rules_revision").asText());
        assertEquals("mission-control", commit.get("fan_out").get(0).asText(), commit.toString());
        JsonNode broken = waitFor(id, t -> t.get("invariant_violations").size() > 0);
        JsonNode violation = broken.get("invariant_violations").get(0);
        assertEquals("memory commits routed by subtype never fan out", violation.get("invariant").asText(), violation.toString());
        assertEquals("memory.committed", violation.path("example").path("smallest_input").path("subtype").asText(),
                violation.toString());
        assertEquals("running", broken.get("state").asText(), "no limit on invariants was set");

        // When its rule throws, and when its rule runs past its share of the deadline
        JsonNode thrown = route("thrower", "test.fails");
        JsonNode slow = route("crawler", "test.runaway");

        // Then each client gets the live answer (200, the live rules' revision and rule), counted as a fallback
        for (JsonNode answer : new JsonNode[] {thrown, slow}) {
            assertEquals(live, answer.get("rules_revision").asText(), answer.toString());
            assertEquals(MANAGER_RULE, answer.get("rule").asText(), answer.toString());
            assertEquals("live", record(answer.get("decision_id").asText()).get("trial").get("arm").asText());
        }
        JsonNode failed = ok(200, send("GET", "/v1/trials/" + id, null));
        assertEquals(2, failed.get("fallbacks").asLong(), failed.toPrettyString());
        assertEquals(1, failed.get("arms").get("candidate").get("errors").asLong(), failed.toPrettyString());
        assertEquals(1, failed.get("arms").get("candidate").get("deadline_exceeded").asLong(), failed.toPrettyString());
        assertEquals(3, failed.get("arms").get("candidate").get("decisions").asLong(), failed.toPrettyString());
        assertEquals(1, failed.get("arms").get("candidate").get("answered").asLong(), failed.toPrettyString());
        // ... and 2 failures of 3 decisions is over the limit, but 3 is under min_decisions
        assertEquals("running", failed.get("state").asText());

        // When two more fail (4 of 5)
        route("thrower", "test.fails");
        route("thrower", "test.fails");

        // Then the trial stops by itself, saying why, and the live rules answer everything again
        JsonNode stopped = waitFor(id, t -> !t.get("state").asText().equals("running"));
        assertEquals("stopped", stopped.get("state").asText());
        assertTrue(stopped.get("stop_reason").asText().contains("max_candidate_error_rate"), stopped.get("stop_reason").asText());
        assertEquals(4, stopped.get("fallbacks").asLong(), stopped.toPrettyString());
        JsonNode after = route("committer", "memory.committed");
        assertEquals(live, after.get("rules_revision").asText());
        assertNull(record(after.get("decision_id").asText()).get("trial"));
    }

    @Test
    @Order(3)
    void aShadowTrialOnAStatefulPackRecordsWhatTheCandidateWouldDoWithoutApplyingIt() throws Exception {
        // Given a running review, and the draft (done only at a quality of 0.9) in shadow
        String instance = "review-" + IDS.incrementAndGet();
        ok(201, send("POST", "/v1/fsm/instances", Json.object().put("id", instance).put("machine", "review-flow")));
        act(instance, "start", null);
        String id = ok(201, send("POST", "/v1/trials", Json.object().put("draft", tried).put("mode", "shadow"))).get("id").asText();

        // When a review of quality 0.8 comes
        JsonNode review = act(instance, "review", Json.object().put("quality", 0.8));

        // Then the live rules decide and their move is made
        assertEquals("done", review.get("to").asText(), review.toString());
        assertEquals("a review of good quality is done", review.get("rule").asText());
        // ... and the candidate decided on the same state before it, recorded apart, never applied
        JsonNode seen = waitFor(id, t -> t.get("comparisons").asLong() >= 1);
        assertEquals(1, seen.get("comparisons").asLong(), seen.toPrettyString());
        JsonNode group = seen.get("divergences").get(0);
        assertEquals("fsm", group.get("pack").asText());
        assertEquals("a review of good quality is done", group.get("live_rule").asText());
        assertEquals("a review below the quality bar goes back for revision", group.get("candidate_rule").asText());
        JsonNode example = group.get("examples").get(0);
        assertEquals("running", example.get("state_before").get("current_state").asText(), example.toPrettyString());
        assertEquals("done", example.get("live").get("to").asText(), example.toPrettyString());
        assertEquals("revising", example.get("candidate").get("to").asText(), example.toPrettyString());
        JsonNode state = ok(200, send("GET", "/v1/fsm/instances/" + instance, null));
        assertEquals("done", state.get("current_state").asText(), state.toString());

        // While it runs: hostile changes are refused naming the field, one trial at a time, and the endpoints need the admin token
        assertRefused(send("PATCH", "/v1/trials/" + id, Json.object().put("percent", -1)), "percent");
        assertRefused(send("PATCH", "/v1/trials/" + id, Json.object().put("state", "promoted")), "state");
        assertRefused(send("PATCH", "/v1/trials/" + id, Json.object()), "");
        assertEquals(409, send("POST", "/v1/trials", Json.object().put("draft", tried).put("mode", "shadow")).statusCode());
        HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/trials/" + id)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode());

        // When it is aborted, it is over
        assertEquals("aborted", ok(200, send("POST", "/v1/trials/" + id + "/abort", null)).get("state").asText());
        assertFalse(server.trials().runningHere());
    }

    @Test
    @Order(4)
    void hostileBodiesAreRefusedNamingTheField() throws Exception {
        String draft = tried;
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "canary").put("percent", 150)),
                "percent");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "canary").put("percent", "50")),
                "percent");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "canary")), "percent");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "blue")), "mode");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "shadow").put("sudo", true)),
                "sudo");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", "../../etc").put("mode", "shadow")), "draft");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "shadow")
                .set("stop", Json.object().put("max_divergence_rate", 2))), "stop.max_divergence_rate");
        assertRefused(send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "shadow")
                .set("stop", Json.object().put("max_everything", 1))), "stop.max_everything");
        HttpResponse<String> notJson = HTTP.send(request("POST", "/v1/trials", "{\"draft\":").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, notJson.statusCode(), notJson.body());
        assertEquals(404, send("POST", "/v1/trials", Json.object().put("draft", "0123456789abcdef").put("mode", "shadow"))
                .statusCode());
        assertEquals(404, send("GET", "/v1/trials/nope", null).statusCode());
    }

    @Test
    @Order(5)
    void aReloadOfOtherLiveRulesEndsTheTrialSayingSo() throws Exception {
        String draft = tried; // its last trial: the reload makes it out of date
        String id = ok(201, send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "shadow"))).get("id").asText();
        Path file = server.engine().rulesDir().resolve(ROUTING);
        Files.writeString(file, Files.readString(file) + "// changed by hand\n");

        ok(200, send("POST", "/v1/rules/reload", null));

        JsonNode ended = waitFor(id, t -> t.get("state").asText().equals("stopped"));
        assertTrue(ended.get("stop_reason").asText().contains("live rules changed"), ended.get("stop_reason").asText());
        assertFalse(server.trials().runningHere());
    }

    @Test
    @Order(6)
    void aRestartResumesATrialBesideTheSameLiveRulesAndOtherwiseEndsItSayingWhy() throws Exception {
        String draft = draftWith(text -> text + "// tried across restarts\n");
        String id = ok(201, send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "canary").put("percent", 50)))
                .get("id").asText();

        // When the server restarts with the same live rules, the trial runs on, as it was
        restart();
        JsonNode resumed = ok(200, send("GET", "/v1/trials/" + id, null));
        assertEquals("running", resumed.get("state").asText());
        assertEquals(50, resumed.get("percent").asDouble());
        assertTrue(resumed.get("events").toString().contains("resumed after a restart"), resumed.get("events").toString());
        assertTrue(server.trials().runningHere());
        assertEquals(id, record(route("after-restart", "trade.executed").get("decision_id").asText()).get("trial").get("id").asText());

        // When it restarts on other live rules, the trial is ended at start, saying why: never silently live
        Path file = config.rules().resolve(ROUTING);
        Files.writeString(file, Files.readString(file) + "// changed while stopped\n");
        restart();
        JsonNode ended = ok(200, send("GET", "/v1/trials/" + id, null));
        assertEquals("stopped", ended.get("state").asText());
        assertTrue(ended.get("stop_reason").asText().startsWith("the server restarted and its live rules are"),
                ended.get("stop_reason").asText());
        assertFalse(server.trials().runningHere());
        assertNull(record(route("after-second-restart", "trade.executed").get("decision_id").asText()).get("trial"));
    }

    @Test
    @Order(7)
    void aSecondTrialIsPromotedThroughTheGateAndRecordedAsAnActivation() throws Exception {
        String draft = draftWith(text -> text + "// reviewed in a live trial\n");
        // Started from the command line this time
        CliRunner.Result cli = CliRunner.run("trial", "start", "--draft", draft, "--mode", "canary", "--percent", "50",
                "--url", base, "--admin-token", TOKEN);
        assertEquals(0, cli.code(), cli.out() + cli.err());
        String id = Json.MAPPER.readTree(cli.out()).get("id").asText();
        assertEquals(2, CliRunner.run("trial", "start", "--draft", draft, "--url", base, "--admin-token", TOKEN).code(),
                "--mode is required");
        CliRunner.Result twice = CliRunner.run("trial", "start", "--draft", draft, "--mode", "shadow", "--url", base,
                "--admin-token", TOKEN);
        assertEquals(1, twice.code());
        assertTrue(twice.err().contains("trial_running"), twice.err());
        for (int i = 0; i < 10; i++) {
            route("promoted-" + i, "trade.executed");
        }
        waitFor(id, t -> t.get("comparisons").asLong() >= 10);

        // A promotion needs a note
        HttpResponse<String> noNote = send("POST", "/v1/trials/" + id + "/promote", Json.object());
        assertEquals(400, noNote.statusCode(), noNote.body());

        JsonNode promoted = ok(200, send("POST", "/v1/trials/" + id + "/promote", Json.object().put("note", "agrees on everything")));
        assertEquals("promoted", promoted.get("state").asText());
        JsonNode activation = promoted.get("activation");
        assertEquals("trial", activation.get("kind").asText());
        assertEquals(id, activation.get("trial").get("id").asText());
        assertEquals(10, activation.get("trial").get("figures").get("comparisons").asLong());
        assertEquals(promoted.get("candidate_revision").asText(), activation.get("new_revision").asText());
        assertEquals(promoted.get("candidate_revision").asText(), server.engine().bundle().revision());
        assertEquals(activation.get("seq").asLong(), promoted.get("promoted_as").asLong());
        // ... the workbench's history shows it, and the draft is closed as activated
        JsonNode history = ok(200, workbench("GET", "activations", null));
        assertEquals("trial", history.get(0).get("kind").asText());
        assertEquals("activated", ok(200, workbench("GET", "drafts/" + draft, null)).get("status").asText());
        assertFalse(server.trials().runningHere());
    }

    @Test
    @Order(8)
    void aPersonStopsAndResumesATrialItsFiguresGoOnAndAStopByItselfIsAudited() throws Exception {
        String draft = draftWith(text -> text.replace("decide.primary(\"vp-trading\")", "decide.primary(\"vp-engineering\")")
                + "// stopped and resumed\n");
        String id = ok(201, send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "shadow"))).get("id").asText();
        for (int i = 0; i < 10; i++) {
            route("paused-" + i, "trade.executed");
        }
        waitFor(id, t -> t.get("comparisons").asLong() >= 10);

        // A stop of state goes alone, and only to a state a person may set
        assertRefused(send("PATCH", "/v1/trials/" + id, Json.object().put("state", "stopped").put("percent", 5)), "state");
        assertRefused(send("PATCH", "/v1/trials/" + id, Json.object().put("state", "promoted")), "state");
        assertRefused(send("PATCH", "/v1/trials/" + id, Json.object().put("reason", "why not")), "reason");
        assertEquals(409, send("PATCH", "/v1/trials/" + id, Json.object().put("state", "running")).statusCode(),
                "a running trial does not resume");

        // When a person stops it, every request is decided by the live rules, and nothing is compared
        JsonNode stopped = ok(200, send("PATCH", "/v1/trials/" + id, Json.object().put("state", "stopped")
                .put("reason", "lunch")));
        assertEquals("stopped", stopped.get("state").asText());
        assertEquals("stopped by an operator: lunch", stopped.get("stop_reason").asText());
        assertFalse(server.trials().runningHere());
        for (int i = 0; i < 5; i++) {
            assertNull(record(route("while-stopped-" + i, "trade.executed").get("decision_id").asText()).get("trial"));
        }
        assertEquals(10, ok(200, send("GET", "/v1/trials/" + id, null)).get("comparisons").asLong());

        // When it resumes, the figures go on from where they were
        JsonNode resumed = ok(200, send("PATCH", "/v1/trials/" + id, Json.object().put("state", "running")));
        assertEquals("running", resumed.get("state").asText());
        assertTrue(resumed.get("events").toString().contains("resumed by an operator"), resumed.get("events").toString());
        for (int i = 0; i < 10; i++) {
            route("resumed-" + i, "trade.executed");
        }
        JsonNode after = waitFor(id, t -> t.get("comparisons").asLong() >= 20);
        assertEquals(20, after.get("comparisons").asLong());
        assertEquals(20, after.get("diverged").asLong());

        // When a limit stops it by itself, the audit log records it as the server's act, naming the trial and why
        ok(200, send("PATCH", "/v1/trials/" + id, Json.object().set("stop", Json.object().put("max_divergence_rate", 0.5)
                .put("min_decisions", 24))));
        for (int i = 0; i < 4; i++) {
            route("tripped-" + i, "trade.executed");
        }
        JsonNode tripped = waitFor(id, t -> t.get("state").asText().equals("stopped"));
        assertTrue(tripped.get("stop_reason").asText().contains("max_divergence_rate"), tripped.get("stop_reason").asText());
        JsonNode entry = Await.value(WAIT, "the trial_stopped audit entry", () -> {
            try {
                for (JsonNode e : ok(200, send("GET", "/v1/audit?limit=1000", null)).get("entries")) {
                    if (e.path("action").asText().equals("trial_stopped") && e.path("trial").asText().equals(id)) {
                        return e;
                    }
                }
                return null;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals("signalman", entry.get("user").asText());
        assertTrue(entry.get("note").asText().contains("max_divergence_rate"), entry.toString());

        // When the live rules change, it cannot resume: the comparison would mix two baselines
        Path file = server.engine().rulesDir().resolve(ROUTING);
        Files.writeString(file, Files.readString(file) + "// changed while the trial was stopped\n");
        ok(200, send("POST", "/v1/rules/reload", null));
        HttpResponse<String> refused = send("PATCH", "/v1/trials/" + id, Json.object().put("state", "running"));
        assertEquals(409, refused.statusCode(), refused.body());
        assertEquals("trial_cannot_resume", Json.MAPPER.readTree(refused.body()).get("error").asText());
        ok(200, send("POST", "/v1/trials/" + id + "/abort", null));
    }

    private static void assertRefused(HttpResponse<String> r, String field) throws Exception {
        assertEquals(400, r.statusCode(), r.body());
        JsonNode err = Json.MAPPER.readTree(r.body());
        assertEquals("invalid_input", err.get("error").asText(), r.body());
        assertEquals(field, err.get("details").get("field").asText(), r.body());
    }

    /** Each sender's trade message answered by which arm (by the revision that answered). */
    private static Map<String, String> arms(Set<String> senders) throws Exception {
        String live = server.engine().bundle().revision();
        Map<String, String> out = new HashMap<>();
        for (String s : senders) {
            JsonNode a = route(s, "trade.executed");
            out.put(s, a.get("rules_revision").asText().equals(live) ? "live" : "candidate");
            assertEquals(out.get(s).equals("live") ? "vp-trading" : "vp-engineering", a.get("primary_recipients").get(0).asText());
        }
        return out;
    }

    /**
     * Senders whose keys fall in each part of the trial's buckets, a few of each: under 10%,
     * between 10% and 50%, over 50% (by the trial's hash, which the server must then follow).
     */
    private static Set<String> senders(String trial) {
        int[] wanted = {6, 6, 6};
        Set<String> out = new TreeSet<>();
        for (int i = 0; out.size() < 18; i++) {
            String s = "agent-" + i;
            int part = Buckets.inside(trial, s, 10) ? 0 : Buckets.inside(trial, s, 50) ? 1 : 2;
            if (wanted[part] > 0) {
                wanted[part]--;
                out.add(s);
            }
        }
        return out;
    }

    private static Set<String> inCandidate(Map<String, String> arms) {
        Set<String> in = new TreeSet<>();
        arms.forEach((s, a) -> {
            if (a.equals("candidate")) {
                in.add(s);
            }
        });
        return in;
    }

    private static JsonNode route(String sender, String subtype) throws Exception {
        JsonNode body = Json.object().put("id", "m-" + IDS.incrementAndGet()).put("type", "event").put("subtype", subtype)
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("envelope", Json.object().put("from_agent", sender)
                        .put("priority", "normal")).set("payload", Json.object());
        return ok(200, send("POST", "/v1/broker/route", body));
    }

    /** An action on an FSM instance, answered 200. */
    private static JsonNode act(String instance, String action, JsonNode payload) throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode body = Json.object().put("action", action);
        if (payload != null) {
            body.set("payload", payload);
        }
        return ok(200, send("POST", "/v1/fsm/instances/" + instance + "/actions", body));
    }

    private static String routeId(String sender) throws Exception {
        return route(sender, "trade.executed").get("decision_id").asText();
    }

    /** A decision's record in the decision log (written before its answer left). */
    private static JsonNode record(String decisionId) throws Exception {
        return io.signalman.http.HttpCalls.decisionRecord(server.decisionLog().directory(), decisionId);
    }

    private static JsonNode waitFor(String id, java.util.function.Predicate<JsonNode> done) {
        return Await.value(WAIT, "trial " + id, () -> {
            try {
                JsonNode t = ok(200, send("GET", "/v1/trials/" + id, null));
                return done.test(t) ? t : null;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A new workbench draft of the live rules whose routing file is {@code edit}ed. */
    private static String draftWith(java.util.function.UnaryOperator<String> edit) throws Exception {
        String id = ok(201, workbench("POST", "drafts", null)).get("id").asText();
        String text = ok(200, workbench("GET", "drafts/" + id + "/file?path=" + ROUTING, null)).get("text").asText();
        ok(200, workbench("PUT", "drafts/" + id + "/file?path=" + ROUTING, Json.object().put("text", edit.apply(text))
                .put("version", 1)));
        return id;
    }

    private static JsonNode ok(int status, HttpResponse<String> r) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        return Json.MAPPER.readTree(r.body());
    }

    private static HttpResponse<String> workbench(String method, String path, JsonNode body) throws Exception {
        return send(method, "/workbench/api/" + path, body);
    }

    private static HttpResponse<String> send(String method, String path, JsonNode body) throws Exception {
        return HTTP.send(request(method, path, body == null ? null : Json.write(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String method, String path, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("authorization", "Bearer " + TOKEN)
                .header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    }
}
