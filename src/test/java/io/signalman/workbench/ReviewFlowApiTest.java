package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.HttpCalls;
import io.signalman.http.TestServer;
import io.signalman.json.Json;
import io.signalman.people.HashCost;
import io.signalman.people.PeopleConfig;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Four eyes that see, through the real server with {@code --approvals 1}: the author asks for
 * review and the draft is {@code in_review}; the approver's inbox holds it, the author's does not;
 * an edit takes it back to open; a rejection waits in the author's inbox with its note; an
 * approved draft waits in the operator's. And nothing goes live past a broken invariant: a change
 * that breaks one on the recent traffic (which the golden history does not hold) is refused 409
 * {@code invariant_violated} at activation, and a trial that saw its candidate break one cannot be
 * promoted.
 */
class ReviewFlowApiTest {

    private static final String ADMIN = "review-flow-admin-token";
    private static final String ROUTING = "broker/routing.drl";
    private static final String CRITICAL = "    Message( priority == \"critical\" )\n";
    /** The change the issue verified: the critical rule widened, so a high-priority memory commit fans out. */
    private static final String WIDENED = "    Message( priority == \"critical\" || priority == \"high\" )\n";
    private static final String HIGH_MEMORY_COMMIT = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"high\"}, "
            + "\"type\": \"event\", \"subtype\": \"memory.committed\"}";

    @RegisterExtension
    static final TestServer server = TestServer.starting(dir -> Server.start(TestBundles.editableSeedServer(dir)
            .withAdminToken(ADMIN).withPeople(PeopleConfig.defaults().withApprovals(1).withHashCost(new HashCost(64, 1, 1)))));
    private static String ana;
    private static String bo;
    private static String cy;

    @BeforeAll
    static void start() throws Exception {
        ana = addUser("ana", "author");
        bo = addUser("bo", "approver");
        cy = addUser("cy", "operator");
    }

    @Test
    void theAuthorAsksForReviewTheApproverSeesItAndTheOperatorSeesWhatIsApproved() throws Exception {
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        edit(id, "    // checked with the desk\n", ana);
        assertEquals("open", draft(id).path("status").asText());

        // When ana asks for review
        JsonNode asked = ok(send("POST", "/workbench/api/drafts/" + id + "/request-review", "{\"note\": \"please look at the "
                + "critical rule\"}", ana), 200);
        assertEquals("in_review", asked.path("status").asText());
        // Then it waits for bo, not for ana, and not yet for the operator
        assertEquals(id, inbox(bo).path("review").path(0).path("draft").asText());
        assertEquals("please look at the critical rule", inbox(bo).path("review").path(0).path("review_note").asText());
        assertEquals(inbox(bo).path("review").size(), inbox(bo).path("counts").path("review").asInt());
        assertFalse(inbox(ana).path("review").toString().contains(id), "nobody reviews their own draft");
        assertFalse(inbox(cy).path("activate").toString().contains(id), "not approved yet: not the operator's");
        assertEquals(403, send("POST", "/workbench/api/drafts/" + id + "/request-review", "{}", addUser("dee", "author"))
                .statusCode(), "only the draft's authors ask for its review");

        // An edit takes it back to open: the reviewer must be asked about the new content
        edit(id, "    // and with risk\n", ana);
        assertEquals("open", draft(id).path("status").asText());
        assertFalse(inbox(bo).path("review").toString().contains(id));
        ok(send("POST", "/workbench/api/drafts/" + id + "/request-review", "{\"note\": \"again\"}", ana), 200);

        // When bo approves, it leaves bo's inbox and waits for the operator
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"fine\"}", bo), 200);
        assertFalse(inbox(bo).path("review").toString().contains(id), "judged: no longer waiting for bo");
        assertEquals(id, inbox(cy).path("activate").path(0).path("draft").asText());

        // A rejected draft waits in its author's inbox, the note first
        String other = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        edit(other, "    // a second thought\n", ana);
        ok(send("POST", "/workbench/api/drafts/" + other + "/request-review", "{}", ana), 200);
        ok(send("POST", "/workbench/api/drafts/" + other + "/reject", "{\"note\": \"not before the audit\"}", bo), 200);
        JsonNode rejected = inbox(ana).path("rejected").path(0);
        assertEquals(other, rejected.path("draft").asText());
        assertEquals("not before the audit", rejected.path("rejection_note").asText());
        assertEquals("bo", rejected.path("rejected_by").asText());
        ok(send("DELETE", "/workbench/api/drafts/" + other, null, ana), 200);
        ok(send("DELETE", "/workbench/api/drafts/" + id, null, ana), 200);
    }

    @Test
    void aChangeThatBreaksAnInvariantOnRecentTrafficIsRefusedAtActivationAndAtPromotion() throws Exception {
        // Given live traffic the golden history does not hold: a high-priority memory commit
        assertEquals(200, send("POST", "/v1/broker/route", HIGH_MEMORY_COMMIT, null).statusCode());
        Await.until(Duration.ofSeconds(10), "the decision to be in the log", () -> send("GET",
                "/workbench/api/decisions?q=memory.committed", null, ADMIN).body().contains("\"decision_id\""));
        // ... and an approved draft that widens the critical rule to high priority
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        JsonNode d = draft(id);
        String text = ok(send("GET", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, null, null), 200).get("text").asText();
        assertTrue(text.contains(CRITICAL));
        ok(send("PUT", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object()
                .put("text", text.replace(CRITICAL, WIDENED)).put("version", d.get("version").asLong())), ana), 200);
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"looks right\"}", bo), 200);

        // When the operator activates it, even accepting the golden history's changes
        HttpResponse<String> r = send("POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"high is critical too\", "
                + "\"accept_golden_changes\": true}", cy);
        // Then it is refused, naming the invariant and the smallest input, and nothing changed
        assertEquals(409, r.statusCode(), r.body());
        JsonNode refused = json(r);
        assertEquals("invariant_violated", refused.path("error").asText());
        assertEquals("memory commits routed by subtype never fan out", refused.path("details").path("invariant").asText());
        assertEquals("memory.committed", refused.path("details").path("smallest_input").path("subtype").asText(), r.body());
        assertEquals("open", draft(id).path("status").asText());

        // And a shadow trial of it that sees the same traffic cannot be promoted
        String trial = ok(send("POST", "/v1/trials", Json.write(Json.object().put("draft", id).put("mode", "shadow")), cy), 201)
                .get("id").asText();
        try {
            assertEquals(200, send("POST", "/v1/broker/route", HIGH_MEMORY_COMMIT, null).statusCode());
            Await.until(Duration.ofSeconds(20), "the trial to count the violation", () -> send("GET", "/v1/trials/" + trial, null,
                    cy).body().contains("memory commits routed by subtype never fan out"));
            HttpResponse<String> p = send("POST", "/v1/trials/" + trial + "/promote", "{\"note\": \"promote it\", "
                    + "\"accept_golden_changes\": true}", cy);
            assertEquals(409, p.statusCode(), p.body());
            assertEquals("invariant_violated", json(p).path("error").asText());
            assertTrue(p.body().contains("memory commits routed by subtype never fan out"), p.body());
        } finally {
            send("POST", "/v1/trials/" + trial + "/abort", null, cy);
        }
        ok(send("DELETE", "/workbench/api/drafts/" + id, null, ana), 200);
    }

    /**
     * The approver sees what changed by rule, and the impact (which any role may run, kept with the
     * draft until its content changes); an operator reads the live rules and undoes one activation
     * alone, as an emergency.
     */
    @Test
    void theApproverSeesTheChangeByRuleAndItsImpactAndAnOperatorRevertsAnActivationAlone() throws Exception {
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        JsonNode d = draft(id);
        String text = ok(send("GET", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, null, null), 200).get("text").asText();
        ok(send("PUT", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object()
                .put("text", text.replace(CRITICAL, "    // the desk confirmed: critical means critical\n" + CRITICAL))
                .put("version", d.get("version").asLong())), ana), 200);
        // The diff names the rule that changed, with its text before and after (tables: DraftDiffTest)
        JsonNode diff = ok(send("GET", "/workbench/api/drafts/" + id + "/diff", null, bo), 200);
        String words = diff.path("in_words").toString();
        assertTrue(words.contains("the rule \\\"critical messages go to openclaw and knox\\\" of broker is changed"), words);
        assertEquals(1, diff.path("rules").size(), diff.toString());
        assertTrue(diff.path("rules").path(0).path("after").asText().contains("critical means critical"), diff.toString());

        // Any role runs the impact; the draft keeps it, and an approval names it
        HttpResponse<String> started = send("POST", "/workbench/api/drafts/" + id + "/impact", "{\"decision_log\": true}", bo);
        assertEquals(202, started.statusCode(), started.body());
        String job = json(started).path("id").asText();
        Await.until(Duration.ofSeconds(60), "the impact to finish", () -> !send("GET", "/workbench/api/impact/" + job, null, bo).body()
                .contains("\"state\":\"running\""));
        assertEquals(job, draft(id).path("impact").path("id").asText());
        assertEquals(false, draft(id).path("impact").path("stale").asBoolean(true));
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"seen the impact\"}", bo), 200);
        assertTrue(send("GET", "/v1/audit?limit=1000", null, ADMIN).body().contains("\"impact_job\":\"" + job + "\""),
                "the approval names the impact run its giver saw");
        JsonNode activated = ok(send("POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"fewer fan-outs\", "
                + "\"accept_golden_changes\": true}", cy), 200);

        // Every role reads the live rules without making a draft
        assertTrue(ok(send("GET", "/workbench/api/live/file?path=" + ROUTING, null, cy), 200).path("text").asText()
                .contains("critical means critical"));

        // The operator undoes that one activation alone, as an emergency
        JsonNode undone = ok(send("POST", "/workbench/api/activations/" + activated.path("seq").asInt() + "/emergency-revert",
                "{\"note\": \"the sentinel missed critical messages\", \"accept_golden_changes\": true}", cy), 200);
        assertTrue(undone.path("emergency").asBoolean(), undone.toString());
        assertEquals(activated.path("seq").asInt(), undone.path("reverts").asInt());
        assertFalse(ok(send("GET", "/workbench/api/live/file?path=" + ROUTING, null, cy), 200).path("text").asText()
                .contains("critical means critical"), "the change is undone");
        assertEquals(403, send("POST", "/workbench/api/activations/1/emergency-revert", "{\"note\": \"x\"}", ana).statusCode());
    }

    /** The event stream tells a page of review requests, verdicts and activations as they happen. */
    @Test
    void theEventStreamTellsAPageOfReviewsAndActivations() throws Exception {
        java.util.List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        var stream = client.sendAsync(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.port()
                + "/workbench/api/events")).header("authorization", "Bearer " + bo).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofLines());
        var response = stream.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals("text/event-stream", response.headers().firstValue("content-type").orElse(""));
        Thread reader = new Thread(() -> response.body().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        try {
            String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
            edit(id, "    // told as it happens\n", ana);
            ok(send("POST", "/workbench/api/drafts/" + id + "/request-review", "{\"note\": \"a look\"}", ana), 200);
            ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"fine\"}", bo), 200);
            ok(send("POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"told\"}", cy), 200);
            Await.until(Duration.ofSeconds(10), "the review, the verdict and the activation to be told", () -> {
                String all = String.join("\n", lines);
                return all.contains("\"action\":\"review_requested\"") && all.contains("\"action\":\"draft_approved\"")
                        && all.contains("event: activation") && all.contains("event: draft");
            });
            assertTrue(String.join("\n", lines).contains("\"draft\":\"" + id + "\""));
        } finally {
            response.body().close();
        }
    }

    /** Try on a logged decision answers with what was recorded beside today's answer, and what differs. */
    @Test
    void tryOnALoggedDecisionShowsWhatWasRecordedBesideTodaysAnswer() throws Exception {
        JsonNode routed = ok(send("POST", "/v1/broker/route", "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": "
                + "\"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\"}", null), 200);
        String id = routed.path("decision_id").asText();
        Await.until(Duration.ofSeconds(10), "the decision to be in the log", () -> send("GET",
                "/workbench/api/decisions?decision_id=" + id, null, ADMIN).body().contains(id));
        JsonNode tried = ok(send("POST", "/workbench/api/try", "{\"decision_id\": \"" + id + "\"}", null), 200);
        assertEquals(id, tried.path("recorded").path("decision_id").asText());
        assertEquals(routed.path("primary_recipients"), tried.path("recorded").path("decision").path("primary_recipients"));
        assertEquals(routed.path("primary_recipients"), tried.path("live").path("primary_recipients"), tried.toString());
        assertEquals(0, tried.path("differences").size(), "the same rules decide the same: " + tried.path("differences"));
        assertEquals(404, send("POST", "/workbench/api/try", "{\"decision_id\": \"no-such-decision\"}", null).statusCode());
    }

    private static JsonNode inbox(String token) throws Exception {
        return ok(send("GET", "/workbench/api/inbox", null, token), 200);
    }

    private static void edit(String id, String line, String token) throws Exception {
        JsonNode d = draft(id);
        String text = ok(send("GET", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, null, null), 200).get("text").asText();
        int at = text.indexOf("rule \"");
        int eol = text.indexOf('\n', at) + 1;
        ok(send("PUT", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object()
                .put("text", text.substring(0, eol) + line + text.substring(eol)).put("version", d.get("version").asLong())), token), 200);
    }

    private static String addUser(String name, String role) throws Exception {
        return ok(send("POST", "/v1/admin/users", Json.write(Json.object().put("name", name).set("roles", Json.array().add(role))),
                ADMIN), 201).get("token").asText();
    }

    private static JsonNode draft(String id) throws Exception {
        return ok(send("GET", "/workbench/api/drafts/" + id, null, null), 200);
    }

    private static JsonNode ok(HttpResponse<String> r, int status) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        return json(r);
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> send(String method, String path, String body, String token) {
        return HttpCalls.send("http://127.0.0.1:" + server.port(), method, path, body, token);
    }
}
