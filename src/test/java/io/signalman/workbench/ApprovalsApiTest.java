package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.TestServer;
import io.signalman.http.HttpCalls;
import io.signalman.json.Json;
import io.signalman.people.AuditVerify;
import io.signalman.people.HashCost;
import io.signalman.people.PeopleConfig;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Four eyes through the real server with {@code --approvals 1}: users made by the admin through
 * {@code /v1/admin/users}; an author drafts a change, activation is refused 409
 * {@code approval_required}; nobody approves their own draft (the bootstrap admin included); an
 * approval is bound to the content, so an edit voids it; an approver approves, an operator
 * activates; the activation and the rule's timeline name all three; an emergency rollback needs
 * an operator alone and is marked; the audit log holds it all, its chain unbroken. One server for
 * the class: the steps are one story.
 */
class ApprovalsApiTest {

    private static final String ADMIN = "approvals-test-admin-token";
    private static final String ROUTING = "broker/routing.drl";
    private static final String RULE = "critical messages go to openclaw and knox";
    private static final String README = "signals/zz.md";
    /** A whole rule file an author might hide in a README: every user message stops. */
    private static final String HIDDEN_RULE = """
            package signalman.signals.plugins;

            import io.signalman.signals.Signal;

            global io.signalman.signals.RouteAction decide;

            rule "every user message stops"
                @reason("hidden in a README")
                agenda-group "plugin" activation-group "signal-route" salience 250
            when
                Signal( kind == "user_message" )
            then
                decide.action("graceful_stop");
            end
            """;

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
    void anAuthorDraftsAnApproverApprovesAnOperatorActivatesAndTheTimelineNamesAllThree() throws Exception {
        // Given ana's draft, which changes one rule
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        editRule(id, "    // checked with the desk on Monday\n", ana);

        // When the operator activates it without an approval, it is refused
        HttpResponse<String> early = activate(id, cy);
        assertEquals(409, early.statusCode(), early.body());
        assertEquals("approval_required", json(early).get("error").asText());
        assertEquals(1, json(early).get("details").get("approvals").get("required").asInt());

        // ... and ana cannot approve (she is no approver), nor reject with an unknown field
        assertEquals(403, send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"mine\"}", ana).statusCode());
        HttpResponse<String> hostile = send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"ok\", \"as\": \"cy\"}", bo);
        assertEquals(400, hostile.statusCode(), hostile.body());
        assertEquals(400, send("POST", "/workbench/api/drafts/" + id + "/approve", "{}", bo).statusCode(), "a verdict needs a note");

        // When bo approves, then ana edits again: the approval was for other content, and counts no more
        JsonNode approved = ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"looks right\"}", bo), 200);
        assertTrue(approved.get("approvals").get("enough").asBoolean(), approved.toString());
        editRule(id, "    // and with compliance\n", ana);
        JsonNode edited = draft(id);
        assertFalse(edited.get("approvals").get("enough").asBoolean());
        assertEquals(1, edited.get("approvals").get("for_other_content").size());
        assertEquals(409, activate(id, cy).statusCode());

        // ... an approval naming content the approver did not read is refused
        HttpResponse<String> stale = send("POST", "/workbench/api/drafts/" + id + "/approve", Json.write(Json.object()
                .put("note", "ok").put("content_hash", approved.get("content_hash").asText())), bo);
        assertEquals(409, stale.statusCode(), stale.body());

        // Then bo approves what is there now, and cy activates it
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", Json.write(Json.object().put("note", "both comments are fine")
                .put("content_hash", edited.get("content_hash").asText())), bo), 200);
        JsonNode rec = ok(activate(id, cy), 200);
        assertEquals("cy", rec.get("who").asText());
        assertEquals(List.of("ana"), texts(rec.get("authors")));
        assertEquals("bo", rec.get("approvals").get(0).get("user").asText());

        // ... and the rule's timeline shows the three names and the rule's own diff
        String path = "/v1/rules/broker/" + URLEncoder.encode(RULE, StandardCharsets.UTF_8).replace("+", "%20") + "/history";
        JsonNode history = ok(send("GET", path, null, null), 200);
        JsonNode last = history.get("timeline").get(0);
        assertEquals("cy", last.get("activated_by").asText());
        assertEquals(List.of("ana"), texts(last.get("authors")));
        assertEquals("bo", last.get("approvals").get(0).get("user").asText());
        assertEquals("changed", last.get("change").asText());
        assertTrue(last.get("diff").asText().contains("+    // and with compliance"), last.get("diff").asText());
        assertFalse(last.get("diff").asText().contains("escalated"), "the diff is of this rule alone");
        // A rule the activation did not touch has no entry for it
        JsonNode other = ok(send("GET", "/v1/rules/broker/" + URLEncoder.encode("escalations go to the sender's manager",
                StandardCharsets.UTF_8).replace("+", "%20") + "/history", null, null), 200);
        assertEquals(0, other.get("timeline").size());
        assertEquals(404, send("GET", "/v1/rules/broker/no%20such%20rule/history", null, null).statusCode());

        // An emergency rollback is an operator's alone, without approvals, and marked
        String before = rec.get("old_revision").asText();
        assertEquals(403, send("POST", "/workbench/api/rollback", rollback(before), ana).statusCode());
        JsonNode back = ok(send("POST", "/workbench/api/rollback", rollback(before), cy), 200);
        assertTrue(back.get("emergency").asBoolean());
        assertEquals("cy", back.get("who").asText());

        // The audit log holds every act, in an unbroken chain
        List<String> actions = new ArrayList<>();
        server.server().people().audit().entries().forEach(e -> actions.add(e.get("user").asText() + " " + e.get("action").asText()));
        assertTrue(actions.containsAll(List.of("admin user_added", "bo draft_approved", "cy activated", "cy rolled_back")), actions
                .toString());
        assertTrue(AuditVerify.check(server.dir().resolve("data")).ok());
    }

    @Test
    void nobodyApprovesTheirOwnDraftTheBootstrapAdminIncluded() throws Exception {
        String id = ok(send("POST", "/workbench/api/drafts", null, ADMIN), 201).get("id").asText();
        editRule(id, "    // the admin's own edit\n", ADMIN);

        HttpResponse<String> own = send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"fine by me\"}", ADMIN);

        assertEquals(403, own.statusCode(), own.body());
        assertEquals("own_draft", json(own).get("error").asText());
        // A rejection by someone else stands in the way until they change their mind
        ok(send("POST", "/workbench/api/drafts/" + id + "/reject", "{\"note\": \"not on a Friday\"}", bo), 200);
        HttpResponse<String> refused = activate(id, cy);
        assertEquals(409, refused.statusCode());
        assertTrue(json(refused).get("message").asText().contains("not on a Friday"), refused.body());
        ok(send("DELETE", "/workbench/api/drafts/" + id, null, ADMIN), 200);
    }

    @Test
    void aTrialIsPromotedOnlyWithTheApprovalsOfItsCandidateAndItsStepsAreAudited() throws Exception {
        // Given ana's draft on trial, started by the operator (an author may not start one)
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        editRule(id, "    // on trial\n", ana);
        String start = Json.write(Json.object().put("draft", id).put("mode", "shadow"));
        assertEquals(403, send("POST", "/v1/trials", start, ana).statusCode());
        String trial = ok(send("POST", "/v1/trials", start, cy), 201).get("id").asText();
        assertEquals(200, send("GET", "/v1/trials/" + trial, null, ana).statusCode(), "a viewer reads a trial");

        // When the operator promotes it without an approval, it is refused and the trial runs on
        String note = Json.write(Json.object().put("note", "the trial agrees"));
        HttpResponse<String> early = send("POST", "/v1/trials/" + trial + "/promote", note, cy);
        assertEquals(409, early.statusCode(), early.body());
        assertEquals("approval_required", json(early).get("error").asText());

        // Then, approved by bo, the operator's promotion goes live, naming all three
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"fine on trial\"}", bo), 200);
        JsonNode promoted = ok(send("POST", "/v1/trials/" + trial + "/promote", note, cy), 200);
        JsonNode rec = promoted.get("activation");
        assertEquals("cy", rec.get("who").asText());
        assertEquals("bo", rec.get("approvals").get(0).get("user").asText());
        assertEquals(trial, rec.get("trial").get("id").asText());
        List<String> actions = new ArrayList<>();
        server.server().people().audit().entries().forEach(e -> actions.add(e.get("user").asText() + " " + e.get("action").asText()));
        assertTrue(actions.containsAll(List.of("cy trial_started", "cy trial_promoted")), actions.toString());
    }

    @Test
    void aRuleFileHiddenInAReadmeIsRefusedAndAnApprovalOfTheReadmeNeverCoversTheRuleSplitOutOfIt() throws Exception {
        // Given ana's draft, and a README holding a whole rule file after a NUL (the attack of issue 38)
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        String framed = "notes\0signals/zzz.drl\0" + HIDDEN_RULE;

        // When she saves it, it is refused at the NUL, and nothing is saved
        HttpResponse<String> save = save(id, README, framed, ana);
        assertEquals(422, save.statusCode(), save.body());
        assertEquals("control_characters", json(save).get("error").asText());
        JsonNode where = json(save).get("details").get("errors").get(0);
        assertEquals(List.of(README, "1", "6"), List.of(where.get("file").asText(), where.get("line").asText(),
                where.get("column").asText()));
        assertEquals(404, send("GET", "/workbench/api/drafts/" + id + "/file?path=" + README, null, null).statusCode());

        // Given the same README in a draft saved before saves were checked, approved by bo as docs
        Files.write(server.dir().resolve("data/workbench/drafts/" + id + "/rules/" + README), framed.getBytes(StandardCharsets.UTF_8));
        JsonNode docs = draft(id);
        assertFalse(docs.get("check").get("ok").asBoolean(), "the compiler refuses the NUL too: " + docs.get("check"));
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", Json.write(Json.object().put("note", "docs only")
                .put("content_hash", docs.get("content_hash").asText())), bo), 200);

        // When ana splits it into the README and a real rule file holding the same bytes
        ok(save(id, README, "notes", ana), 200);
        JsonNode split = ok(save(id, "signals/zzz.drl", HIDDEN_RULE, ana), 200);

        // Then the content is another, the approval was of the README's, and activation is refused
        assertNotEquals(docs.get("content_hash").asText(), split.get("content_hash").asText());
        assertFalse(split.get("approvals").get("enough").asBoolean(), split.get("approvals").toString());
        assertEquals(1, split.get("approvals").get("for_other_content").size());
        HttpResponse<String> activation = activate(id, cy);
        assertEquals(409, activation.statusCode(), activation.body());
        assertEquals("approval_required", json(activation).get("error").asText());
        ok(send("DELETE", "/workbench/api/drafts/" + id, null, ana), 200);
    }

    @Test
    void anUnapprovedDraftRunsInShadowButNeverAsACanaryNotEvenOnceApprovedContentDiffersFromTheTrials() throws Exception {
        // Given ana's unapproved draft
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        editRule(id, "    // canary without approval\n", ana);

        // When the operator starts it as a canary for all traffic with no stop limit, it is refused as an activation is
        HttpResponse<String> canary = send("POST", "/v1/trials", Json.write(Json.object().put("draft", id).put("mode", "canary")
                .put("percent", 100)), cy);
        assertEquals(409, canary.statusCode(), canary.body());
        assertEquals("approval_required", json(canary).get("error").asText());
        assertEquals(1, json(canary).get("details").get("approvals").get("required").asInt());

        // ... while in shadow, which changes no answer, it runs
        String trial = ok(send("POST", "/v1/trials", Json.write(Json.object().put("draft", id).put("mode", "shadow")), cy), 201)
                .get("id").asText();
        try {
            // Then it cannot be turned into a canary, though its shadow's sample may change
            assertEquals("approval_required", refusedChange(trial, Json.object().put("mode", "canary").put("percent", 1)));
            assertEquals(50.0, ok(change(trial, Json.object().put("percent", 50)), 200).get("percent").asDouble());

            // ... nor once bo approves a later edit of the draft: the trial runs the content before it
            editRule(id, "    // and a second comment\n", ana);
            ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"the second version is fine\"}", bo), 200);
            assertTrue(draft(id).get("approvals").get("enough").asBoolean());
            assertEquals("approval_required", refusedChange(trial, Json.object().put("mode", "canary").put("percent", 1)));
            assertEquals("shadow", ok(send("GET", "/v1/trials/" + trial, null, cy), 200).get("mode").asText());
        } finally {
            ok(send("POST", "/v1/trials/" + trial + "/abort", null, cy), 200);
        }
        ok(send("DELETE", "/workbench/api/drafts/" + id, null, ana), 200);
    }

    @Test
    void aCanaryPercentRisesOnlyWhileItsApprovalsStandAndARejectionSendsItBackToShadowAtOnce() throws Exception {
        // Given ana's draft approved by bo, on a canary that rises from 10% to 100% while the approval stands
        onApprovedCanary("    // approved canary\n", 10, (id, trial, candidate) -> {
            assertEquals(100.0, ok(change(trial, Json.object().put("percent", 100)), 200).get("percent").asDouble());
            assertEquals(candidate, route().get("rules_revision").asText(), "the canary answers every request");

            // When bo changes his mind and rejects it
            ok(send("POST", "/workbench/api/drafts/" + id + "/reject", "{\"note\": \"the desk objects\"}", bo), 200);

            // Then the very next request is the live rules' (the canary answers nothing after the rejection) ...
            assertEquals(server.server().engine().bundle().revision(), route().get("rules_revision").asText());
            // ... the trial is a shadow again, its percent kept as its sample, recorded as the server's act with bo's note
            JsonNode shadow = waitForMode(trial, "shadow");
            assertEquals(100.0, shadow.get("percent").asDouble());
            assertTrue(audited("trial_changed", trial).get("note").asText().contains("bo rejected it: \"the desk objects\""));
            // ... and it cannot become a canary again while the rejection stands; a shadow's sample may change
            assertEquals("approval_required", refusedChange(trial, Json.object().put("mode", "canary")));
            assertEquals(5.0, ok(change(trial, Json.object().put("percent", 5)), 200).get("percent").asDouble());
        });
    }

    @Test
    void anApproverWithdrawsTheApprovalOfTheContentACanaryRunsThoughTheDraftMovedOn() throws Exception {
        // Given ana's draft approved by bo on a 100% canary, then edited by ana (the canary runs the approved content)
        onApprovedCanary("    // the content on trial\n", 100, (id, trial, approved) -> {
            editRule(id, "    // the draft moved on\n", ana);
            assertEquals(approved, route().get("rules_revision").asText());

            // When bo approves the content on trial again, it is refused: an approval names the content as it is now
            HttpResponse<String> stale = send("POST", "/workbench/api/drafts/" + id + "/approve", Json.write(Json.object()
                    .put("note", "still fine").put("content_hash", approved)), bo);
            assertEquals(409, stale.statusCode(), stale.body());
            assertEquals("draft_changed", json(stale).get("error").asText());
            // ... and a rejection naming content that is neither the draft's nor on trial is refused too
            HttpResponse<String> other = send("POST", "/workbench/api/drafts/" + id + "/reject", Json.write(Json.object()
                    .put("note", "no").put("content_hash", "sha256:" + "0".repeat(64))), bo);
            assertEquals(409, other.statusCode(), other.body());

            // When bo rejects the content the canary runs, naming it
            ok(send("POST", "/workbench/api/drafts/" + id + "/reject", Json.write(Json.object().put("note", "misroutes on trial")
                    .put("content_hash", approved)), bo), 200);

            // Then the rejection is recorded against exactly that content, and the canary stops answering
            assertEquals(approved, audited(io.signalman.people.Approvals.REJECTED, id).get("content_hash").asText());
            assertEquals(server.server().engine().bundle().revision(), route().get("rules_revision").asText());
            waitForMode(trial, "shadow");
        });
    }

    @Test
    void usersAreValidatedAndARemovedUsersTokenStopsAtOnce() throws Exception {
        assertEquals(400, send("POST", "/v1/admin/users", "{\"name\": \"dee\", \"roles\": [\"superuser\"]}", ADMIN).statusCode());
        assertEquals(400, send("POST", "/v1/admin/users", "{\"name\": \"Dee!\", \"roles\": [\"viewer\"]}", ADMIN).statusCode());
        assertEquals(400, send("POST", "/v1/admin/users", "{\"name\": \"dee\", \"roles\": [\"viewer\"], \"admin\": true}", ADMIN)
                .statusCode());
        assertEquals(409, send("POST", "/v1/admin/users", "{\"name\": \"ana\", \"roles\": [\"viewer\"]}", ADMIN).statusCode());
        String dee = addUser("dee", "author");
        assertEquals(201, send("POST", "/workbench/api/drafts", null, dee).statusCode());

        ok(send("DELETE", "/v1/admin/users/dee", null, ADMIN), 200);

        assertEquals(403, send("POST", "/workbench/api/drafts", null, dee).statusCode());
        JsonNode list = ok(send("GET", "/v1/admin/users", null, ADMIN), 200);
        assertFalse(list.toString().contains("dee"));
        assertFalse(list.toString().contains("argon2"), "no hash is ever answered");
    }

    private static String addUser(String name, String role) throws Exception {
        HttpResponse<String> r = send("POST", "/v1/admin/users", Json.write(Json.object().put("name", name)
                .set("roles", Json.array().add(role))), ADMIN);
        assertEquals("no-store", r.headers().firstValue("cache-control").orElse(""));
        return ok(r, 201).get("token").asText();
    }

    /** Adds {@code line} inside the rule {@link #RULE}, after its name. */
    private static void editRule(String id, String line, String token) throws Exception {
        JsonNode d = draft(id);
        String text = ok(send("GET", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, null, null), 200).get("text").asText();
        String head = "rule \"" + RULE + "\"\n";
        assertTrue(text.contains(head));
        ok(send("PUT", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object()
                .put("text", text.replace(head, head + line)).put("version", d.get("version").asLong())), token), 200);
    }

    private static HttpResponse<String> save(String id, String path, String text, String token) throws Exception {
        return send("PUT", "/workbench/api/drafts/" + id + "/file?path=" + path, Json.write(Json.object().put("text", text)
                .put("version", draft(id).get("version").asLong())), token);
    }

    /** What a test does with a draft on trial: its id, the trial's, and the content the trial runs. */
    private interface OnTrial {
        void run(String draft, String trial, String candidate) throws Exception;
    }

    /**
     * ana's draft with {@code line} in the critical rule, approved by bo naming its content, on a canary at
     * {@code percent} started by cy: {@code body} runs, then the trial is aborted and the draft deleted.
     */
    private static void onApprovedCanary(String line, double percent, OnTrial body) throws Exception {
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        editRule(id, line, ana);
        String content = draft(id).get("approvals").get("content_hash").asText();
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", Json.write(Json.object().put("note", "fine for a canary")
                .put("content_hash", content)), bo), 200);
        JsonNode started = ok(send("POST", "/v1/trials", Json.write(Json.object().put("draft", id).put("mode", "canary")
                .put("percent", percent)), cy), 201);
        assertEquals(content, started.get("candidate_revision").asText());
        String trial = started.get("id").asText();
        try {
            body.run(id, trial, content);
        } finally {
            ok(send("POST", "/v1/trials/" + trial + "/abort", null, cy), 200);
        }
        ok(send("DELETE", "/workbench/api/drafts/" + id, null, ana), 200);
    }

    private static final java.util.concurrent.atomic.AtomicInteger MESSAGES = new java.util.concurrent.atomic.AtomicInteger();

    /** A critical message routed by the broker (anonymously, as a service asks), answered 200. */
    private static JsonNode route() throws Exception {
        JsonNode body = Json.object().put("id", "approvals-m-" + MESSAGES.incrementAndGet()).put("type", "event")
                .put("subtype", "trade.executed").<com.fasterxml.jackson.databind.node.ObjectNode>set("envelope", Json.object()
                        .put("from_agent", "desk-" + MESSAGES.get()).put("priority", "critical")).set("payload", Json.object());
        return ok(send("POST", "/v1/broker/route", Json.write(body), null), 200);
    }

    /** The trial once its record says {@code mode} (the record is written just after the change takes effect). */
    private static JsonNode waitForMode(String trial, String mode) {
        return io.signalman.Await.value(java.time.Duration.ofSeconds(10), "trial " + trial + " to be " + mode, () -> {
            try {
                JsonNode t = ok(send("GET", "/v1/trials/" + trial, null, cy), 200);
                return mode.equals(t.get("mode").asText()) ? t : null;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    /** The newest audit entry of {@code action} about {@code subject} (a trial or a draft), once there is one. */
    private static JsonNode audited(String action, String subject) {
        return io.signalman.Await.value(java.time.Duration.ofSeconds(10), "an audit entry " + action + " about " + subject, () -> {
            List<JsonNode> all = server.server().people().audit().entries();
            for (int i = all.size() - 1; i >= 0; i--) {
                JsonNode e = all.get(i);
                if (action.equals(e.path("action").asText()) && (subject.equals(e.path("trial").asText())
                        || subject.equals(e.path("draft").asText()))) {
                    return e;
                }
            }
            return null;
        });
    }

    private static HttpResponse<String> change(String trial, JsonNode body) {
        return send("PATCH", "/v1/trials/" + trial, Json.write(body), cy);
    }

    /** The error code of a change the operator asks for and is refused 409, as an activation is. */
    private static String refusedChange(String trial, JsonNode body) throws Exception {
        HttpResponse<String> r = change(trial, body);
        assertEquals(409, r.statusCode(), r.body());
        assertTrue(json(r).get("details").get("approvals").has("required"), r.body());
        return json(r).get("error").asText();
    }

    private static HttpResponse<String> activate(String id, String token) throws Exception {
        return send("POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"a comment in the critical rule\"}", token);
    }

    private static String rollback(String revision) {
        return Json.write(Json.object().put("revision", revision).put("note", "the desk reports misroutes"));
    }

    private static JsonNode draft(String id) throws Exception {
        return ok(send("GET", "/workbench/api/drafts/" + id, null, null), 200);
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
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
