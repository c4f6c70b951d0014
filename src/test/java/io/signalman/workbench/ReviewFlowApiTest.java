package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(1, inbox(bo).path("counts").path("review").asInt());
        assertEquals(0, inbox(ana).path("counts").path("review").asInt(), "nobody reviews their own draft");
        assertEquals(0, inbox(cy).path("counts").path("activate").asInt());
        assertEquals(403, send("POST", "/workbench/api/drafts/" + id + "/request-review", "{}", addUser("dee", "author"))
                .statusCode(), "only the draft's authors ask for its review");

        // An edit takes it back to open: the reviewer must be asked about the new content
        edit(id, "    // and with risk\n", ana);
        assertEquals("open", draft(id).path("status").asText());
        assertEquals(0, inbox(bo).path("counts").path("review").asInt());
        ok(send("POST", "/workbench/api/drafts/" + id + "/request-review", "{\"note\": \"again\"}", ana), 200);

        // When bo approves, it leaves bo's inbox and waits for the operator
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"fine\"}", bo), 200);
        assertEquals(0, inbox(bo).path("counts").path("review").asInt());
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
