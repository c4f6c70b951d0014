package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drafts over their life, through the workbench's API: a status on every draft, an
 * activated draft closed, a stale save refused, an out-of-date draft rebased in place with a
 * conflict at its line, one activation reverted while a later one stays, and a rollback that says
 * which later activations it would undo. Each test has a server of its own: they activate.
 * The edits are comments, so the golden history replays unchanged.
 */
class DraftLifecycleApiTest {

    private static final String TOKEN = "draft-lifecycle-test-token";
    private static final String ROUTING = "broker/routing.drl";
    private static final String AGENTS = "signals/agents.drl";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path dir;
    private Server server;
    private String base;

    @BeforeEach
    void start() throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.copyTree(TestBundles.FIXTURES, dir.resolve("fixtures"));
        server = Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withFixtures(dir.resolve("fixtures"))
                .withData(dir.resolve("data")).withAdminToken(TOKEN));
        base = "http://127.0.0.1:" + server.port() + "/workbench/api/";
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anActivatedDraftIsClosedAndTheOthersAreOutOfDate() throws Exception {
        // Given two drafts of the live rules
        String a = newDraft();
        String b = newDraft();
        assertEquals("open", draft(b).get("status").asText());

        // When the first is activated
        append(a, ROUTING, "// reviewed on Monday\n");
        JsonNode rec = ok(send("POST", "drafts/" + a + "/activate", "{\"note\": \"a comment\", \"version\": 2}"));

        // Then it is closed: activated, read-only, with the activation's number and no suggested note
        JsonNode closed = draft(a);
        assertEquals("activated", closed.get("status").asText());
        assertEquals(rec.get("seq").asInt(), closed.get("activated_as").asInt());
        assertTrue(closed.get("suggested_note").isNull());
        HttpResponse<String> refused = put(a, ROUTING, "// more\n", closed.get("version").asLong());
        assertEquals(409, refused.statusCode(), refused.body());
        assertEquals("draft_closed", json(refused).get("error").asText());
        assertEquals(409, send("POST", "drafts/" + a + "/activate", "{\"note\": \"again\"}").statusCode());

        // ... and the other is out of date, in the list too: it cannot be activated until rebased
        assertEquals("out_of_date", draft(b).get("status").asText());
        assertEquals(List.of("out_of_date", "activated"), statuses());
        HttpResponse<String> stale = send("POST", "drafts/" + b + "/activate", "{\"note\": \"would undo the comment\"}");
        assertEquals(409, stale.statusCode());
        assertEquals("draft_out_of_date", json(stale).get("error").asText());

        // A discarded draft is closed too, and kept to be read
        JsonNode discarded = ok(send("DELETE", "drafts/" + b, null));
        assertEquals("discarded", discarded.get("status").asText());
        assertEquals(409, put(b, ROUTING, "x", discarded.get("version").asLong()).statusCode());
    }

    @Test
    void aSaveNamesTheVersionItEditedAndAStaleOneIsRefused() throws Exception {
        String id = newDraft();
        String text = file(id, ROUTING);
        assertEquals(200, put(id, ROUTING, text + "// Ana's edit\n", 1).statusCode());

        // Bob edited version 1 too: his save would overwrite Ana's edit, so it is refused with where the draft is now
        HttpResponse<String> bob = put(id, ROUTING, text + "// Bob's edit\n", 1);
        assertEquals(409, bob.statusCode(), bob.body());
        JsonNode err = json(bob);
        assertEquals("draft_changed", err.get("error").asText());
        assertEquals(2, err.get("details").get("version").asInt());
        assertEquals(ROUTING, err.get("details").get("saved_file").asText());
        assertTrue(file(id, ROUTING).contains("Ana's edit"));

        // A save that names no version is refused too
        HttpResponse<String> blind = send("PUT", "drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object().put("text", "x")));
        assertEquals(400, blind.statusCode());
        assertEquals("version_required", json(blind).get("error").asText());
    }

    @Test
    void aStaleDraftIsRebasedInPlaceKeepingBothChangesAndAConflictIsShownAtItsLine() throws Exception {
        // Given a draft with its own edits at the top and at the end of the routing file
        String id = newDraft();
        String original = file(id, ROUTING);
        put(id, ROUTING, "// the draft's head note\n" + original + "// the draft's tail note\n", 1);
        // ... and, meanwhile, an activation that adds a line to another file and one at the same end
        String other = newDraft();
        put(other, AGENTS, file(other, AGENTS) + "// activated meanwhile\n", 1);
        put(other, ROUTING, original + "// the live tail note\n", 2);
        ok(send("POST", "drafts/" + other + "/activate", "{\"note\": \"meanwhile\"}"));
        assertEquals("out_of_date", draft(id).get("status").asText());

        // When the draft is rebased
        HttpResponse<String> r = send("POST", "drafts/" + id + "/rebase", "{\"version\": 2}");

        // Then it is the same draft, made from the live rules now, with the live change and its own
        JsonNode d = ok(r);
        assertEquals(id, d.get("id").asText());
        assertEquals("open", d.get("status").asText());
        assertEquals(server.engine().bundle().revision(), d.get("base_revision").asText());
        assertTrue(file(id, AGENTS).contains("// activated meanwhile"));
        String merged = file(id, ROUTING);
        assertTrue(merged.startsWith("// the draft's head note\n"), merged);
        // ... and where both added a line at the same place, both stay between markers, at their line
        JsonNode conflict = d.get("rebase").get("conflicts").get(0);
        assertEquals(ROUTING, conflict.get("file").asText());
        int line = conflict.get("line").asInt();
        assertEquals("<<<<<<< the live rules", merged.lines().toList().get(line - 1));
        assertTrue(merged.contains("// the live tail note\n=======\n// the draft's tail note\n>>>>>>> this draft"), merged);
        // ... which the draft's check shows as an error at that line, and activation refuses
        JsonNode error = d.get("check").get("errors").get(0);
        assertEquals(ROUTING, error.get("file").asText());
        assertEquals(line, error.get("line").asInt());
        assertTrue(error.get("message").asText().startsWith("unresolved conflict"), error.toString());
        assertEquals(422, send("POST", "drafts/" + id + "/activate", "{\"note\": \"with markers\"}").statusCode());

        // Resolved (both notes kept), it compiles and activates
        String resolved = merged.replace("<<<<<<< the live rules\n", "").replace("=======\n", "").replace(">>>>>>> this draft\n", "");
        JsonNode saved = ok(put(id, ROUTING, resolved, d.get("version").asLong()));
        assertTrue(saved.get("check").get("ok").asBoolean(), saved.get("check").toString());
        ok(send("POST", "drafts/" + id + "/activate", "{\"note\": \"both notes\"}"));
        String live = Files.readString(server.engine().rulesDir().resolve(ROUTING));
        assertTrue(live.contains("// the live tail note\n// the draft's tail note\n"), live);
    }

    @Test
    void revertingAnEarlierActivationKeepsTheLaterOneAndRollbackSaysWhatItWouldUndo() throws Exception {
        // Given activation #1 (a note in the routing file) and then #2 (a note in the signals agents)
        String one = newDraft();
        put(one, ROUTING, "// first change\n" + file(one, ROUTING), 1);
        ok(send("POST", "drafts/" + one + "/activate", "{\"note\": \"the first change\"}"));
        String two = newDraft();
        put(two, AGENTS, file(two, AGENTS) + "// second change\n", 1);
        ok(send("POST", "drafts/" + two + "/activate", "{\"note\": \"the second change\"}"));

        // The history says that rolling back to before #1 would undo #2 as well
        JsonNode history = ok(send("GET", "activations", null));
        JsonNode first = history.get(1);
        assertEquals(1, first.get("seq").asInt());
        assertEquals(2, first.get("rollback_undoes").get(0).get("seq").asInt());
        assertEquals("the second change", first.get("rollback_undoes").get(0).get("note").asText());
        assertEquals(0, history.get(0).get("rollback_undoes").size());

        // When #1 is reverted
        HttpResponse<String> r = send("POST", "activations/1/revert", "{}");

        // Then a new open draft holds the live rules without #1's change, #2's still in, and a note to start from
        assertEquals(201, r.statusCode(), r.body());
        JsonNode d = json(r);
        String id = d.get("id").asText();
        assertEquals("open", d.get("status").asText());
        assertEquals("revert of activation #1", d.get("origin").asText());
        assertTrue(d.get("suggested_note").asText().startsWith("Revert activation #1 (the first change)"));
        assertEquals(0, d.get("revert").get("conflicts").size());
        assertEquals(List.of(ROUTING), texts(d.get("revert").get("changed_files")));
        assertFalse(file(id, ROUTING).contains("// first change"));
        assertTrue(file(id, AGENTS).contains("// second change"));

        // ... and activated, the first change is gone from the live rules while the second stays
        ok(send("POST", "drafts/" + id + "/activate", "{\"note\": \"undo the first change only\"}"));
        assertFalse(Files.readString(server.engine().rulesDir().resolve(ROUTING)).contains("// first change"));
        assertTrue(Files.readString(server.engine().rulesDir().resolve(AGENTS)).contains("// second change"));
        assertEquals(404, send("POST", "activations/9/revert", "{}").statusCode());
    }

    private List<String> statuses() throws Exception {
        List<String> out = new ArrayList<>();
        ok(send("GET", "drafts", null)).forEach(d -> out.add(d.get("status").asText()));
        return out;
    }

    private void append(String id, String path, String text) throws Exception {
        ok(put(id, path, file(id, path) + text, draft(id).get("version").asLong()));
    }

    private JsonNode draft(String id) throws Exception {
        return ok(send("GET", "drafts/" + id, null));
    }

    private String file(String id, String path) throws Exception {
        return ok(send("GET", "drafts/" + id + "/file?path=" + path, null)).get("text").asText();
    }

    private HttpResponse<String> put(String id, String path, String text, long version) throws Exception {
        return send("PUT", "drafts/" + id + "/file?path=" + path, Json.write(Json.object().put("text", text).put("version", version)));
    }

    private String newDraft() throws Exception {
        HttpResponse<String> r = send("POST", "drafts", null);
        assertEquals(201, r.statusCode(), r.body());
        return json(r).get("id").asText();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertTrue(r.statusCode() / 100 == 2, r.statusCode() + " " + r.body());
        return json(r);
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("content-type", "application/json");
        }
        b.header("authorization", "Bearer " + TOKEN);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
