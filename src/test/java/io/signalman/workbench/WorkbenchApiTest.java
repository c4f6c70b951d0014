package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.http.TestServer;
import io.signalman.http.HttpCalls;
import io.signalman.json.Json;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The workbench's API over HTTP: writes need the admin token in the header, drafts stay
 * inside their folder and within their size, activation needs a note, a rollback goes back through
 * the gate to an earlier activated revision, the pages carry a strict Content-Security-Policy, and
 * the live tail streams decisions filtered by pack, and the scenarios and decision tables of the
 * live rules or of a draft are shown as the CLI's test and check see them.
 */
class WorkbenchApiTest {

    private static final String TOKEN = "workbench-api-test-token";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final TestServer server = TestServer.starting(dir -> {
        ServerConfig config = TestBundles.editableSeedServer(dir).withAdminToken(TOKEN);
        useModelWeightsTable(config.rules());
        return Server.start(config);
    });
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        base = "http://127.0.0.1:" + server.port() + "/workbench/api/";
    }

    @Test
    void tryListsEveryInputErrorAtOnceNotOnePerAttempt() throws Exception {
        // Given a message with three mistakes: a priority outside its words, a type that is no text, a field no one reads
        String body = "{\"pack\": \"broker\", \"input\": {\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"urgent\"},"
                + " \"type\": 42, \"subtype\": \"trade.executed\", \"sudo\": true}}";

        HttpResponse<String> r = send("POST", "try", body, null);

        // Then one answer names all three, the first in the message
        assertEquals(400, r.statusCode(), r.body());
        JsonNode err = json(r);
        assertEquals("invalid_input", err.get("error").asText());
        java.util.Set<String> fields = new java.util.TreeSet<>();
        err.get("details").get("errors").forEach(e -> fields.add(e.get("field").asText()));
        assertEquals(java.util.Set.of("envelope.priority", "type", "sudo"), fields, err.toString());
        assertTrue(err.get("message").asText().contains("and 2 more"), err.toString());

        // ... and a valid message is not refused by the search for more
        HttpResponse<String> fine = send("POST", "try", "{\"pack\": \"broker\", \"input\": {\"envelope\": {\"from_agent\":"
                + " \"foresight\", \"priority\": \"normal\"}, \"type\": \"event\", \"subtype\": \"trade.executed\"}}", null);
        assertEquals(200, fine.statusCode(), fine.body());
    }

    @Test
    void pagesCarryAStrictContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create(base.replace("api/", ""))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        String csp = page.headers().firstValue("content-security-policy").orElse("");
        assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe-eval") && !csp.contains("script-src 'self' 'unsafe-inline'"), csp);
        assertFalse(page.body().contains("onclick=") || page.body().contains("<script>"), "no inline script in the page");
    }

    @Test
    void writesNeedTheAdminTokenInTheHeader() throws Exception {
        assertEquals(401, send("POST", "drafts", null, null).statusCode());
        assertEquals(403, send("POST", "drafts", null, "wrong").statusCode());
        assertEquals(200, send("GET", "rules", null, null).statusCode(), "reading is open on loopback");
    }

    @Test
    void draftFileNamesCannotLeaveTheBundleFolder() throws Exception {
        String id = newDraft();
        for (String name : new String[] {"../escape.drl", "broker/../../escape.drl", "/etc/passwd.drl", "..%2Fescape.drl",
            ".hidden.drl", "broker/notes.sh"}) {
            HttpResponse<String> r = send("PUT", "drafts/" + id + "/file?path=" + java.net.URLEncoder.encode(name,
                    StandardCharsets.UTF_8), "{\"text\": \"x\", \"version\": 1}", TOKEN);
            assertEquals(400, r.statusCode(), name + ": " + r.body());
        }
        assertFalse(Files.exists(server.dir().resolve("data/workbench/drafts/escape.drl")));
        assertFalse(Files.exists(server.dir().resolve("data/workbench/escape.drl")));
    }

    @Test
    void draftFilesAreSizeLimited() throws Exception {
        String id = newDraft();
        String big = "x".repeat(Drafts.MAX_FILE_BYTES + 1);
        HttpResponse<String> r = send("PUT", "drafts/" + id + "/file?path=broker/big.drl", "{\"version\": 1, \"text\": \"" + big + "\"}", TOKEN);
        assertEquals(413, r.statusCode(), r.body());
    }

    @Test
    void activationNeedsANoteAndRollbackGoesBackThroughTheGate() throws Exception {
        String id = newDraft();
        String before = server.server().engine().bundle().revision();
        String routing = Json.parse(send("GET", "drafts/" + id + "/file?path=broker/routing.drl", null, null).body()
                .getBytes(StandardCharsets.UTF_8)).get("text").asText();
        // A change no recorded decision sees: a comment, so the golden history replays unchanged.
        String edited = routing + "\n// reviewed by the analysts on Monday\n";
        assertEquals(200, save(id, "broker/routing.drl", edited).statusCode());
        assertEquals(400, send("POST", "drafts/" + id + "/activate", "{}", TOKEN).statusCode(), "a note is required");
        HttpResponse<String> on = send("POST", "drafts/" + id + "/activate", "{\"note\": \"a comment for the record\"}", TOKEN);
        assertEquals(200, on.statusCode(), on.body());
        String after = server.server().engine().bundle().revision();
        assertFalse(before.equals(after));
        assertTrue(Files.readString(server.server().engine().rulesDir().resolve("broker/routing.drl")).contains("reviewed by the analysts"));

        HttpResponse<String> back = send("POST", "rollback", Json.write(Json.object().put("revision", before)
                .put("note", "back to before")), TOKEN);
        assertEquals(200, back.statusCode(), back.body());
        assertEquals(before, server.server().engine().bundle().revision());
        JsonNode history = Json.parse(send("GET", "activations", null, null).body().getBytes(StandardCharsets.UTF_8));
        assertEquals("rollback", history.get(0).get("kind").asText());
        assertEquals("admin", history.get(0).get("who").asText());
        assertEquals(after, history.get(0).get("old_revision").asText());
        assertEquals(2, Files.readAllLines(server.dir().resolve("data/activations.jsonl")).size());
    }

    @Test
    void theLiveTailStreamsDecisionsOfThePackAsked() throws Exception {
        HttpResponse<InputStream> tail = HTTP.send(HttpRequest.newBuilder(URI.create(base + "tail?pack=broker&q=tail-probe")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, tail.statusCode());
        BufferedReader in = new BufferedReader(new InputStreamReader(tail.body(), StandardCharsets.UTF_8));
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("data: ")) {
                        return line.substring(6);
                    }
                }
                return null;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Await.until(Duration.ofSeconds(10), "a decision in the tail", () -> {
            try {
                HTTP.send(HttpRequest.newBuilder(URI.create(base.replace("/workbench/api/", "/v1/broker/route")))
                        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"envelope\": {\"from_agent\": \"foresight\"}, \"type\": \"event\", \"subtype\": \"tail-probe\"}"))
                        .build(), HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return first.isDone();
        });
        JsonNode rec = Json.parse(first.join().getBytes(StandardCharsets.UTF_8));
        assertEquals("broker", rec.get("pack").asText());
        assertEquals("tail-probe", rec.get("input").get("subtype").asText());
        in.close();
    }

    @Test
    void theLiveRulesScenariosAllPassWithTheirCount() throws Exception {
        long firedBefore = timesFired("broker", "critical messages go to openclaw and knox");

        // When the scenarios of the live rules are run
        HttpResponse<String> r = send("GET", "scenarios", null, null);

        // Then every scenario beside the rules ran, and passed
        assertEquals(200, r.statusCode(), r.body());
        JsonNode report = json(r);
        int count = scenarioCount(server.server().engine().rulesDir());
        assertTrue(count > 50, "the seed bundle's scenarios: " + count);
        assertTrue(report.get("passed").asBoolean(), r.body());
        assertEquals(count, report.get("scenarios").asInt());
        assertEquals(count, report.get("results").size());
        assertEquals(0, report.get("failed").asInt());
        assertEquals(server.server().engine().bundle().revision(), report.get("revision").asText());
        // ... and, not being live decisions, they leave the live rules' fired counts alone
        assertEquals(firedBefore, timesFired("broker", "critical messages go to openclaw and knox"));
    }

    private static long timesFired(String pack, String rule) throws Exception {
        for (JsonNode p : json(send("GET", "rules", null, null)).get("packs")) {
            for (JsonNode x : p.get("rules")) {
                if (p.get("name").asText().equals(pack) && x.get("name").asText().equals(rule)) {
                    return x.get("fired").asLong();
                }
            }
        }
        throw new AssertionError("no rule " + pack + "/" + rule);
    }

    @Test
    void aDraftWhoseScenarioExpectsOtherwiseShowsItFailingWithTheMismatch() throws Exception {
        // Given a draft where one scenario expects a critical trade to go to the CFO instead of knox
        String id = newDraft();
        String path = "broker/scenarios/routing.yaml";
        assertEquals(200, edit(id, path, "primary_recipients: [openclaw, knox]", "primary_recipients: [openclaw, cfo]").statusCode());

        // When the draft's scenarios are run
        HttpResponse<String> r = send("GET", "scenarios?draft=" + id, null, null);

        // Then that scenario, and only it, fails at its file and line, with expected vs actual
        assertEquals(200, r.statusCode(), r.body());
        JsonNode report = json(r);
        assertFalse(report.get("passed").asBoolean());
        assertEquals(1, report.get("failed").asInt());
        JsonNode failed = null;
        for (JsonNode x : report.get("results")) {
            if (!x.get("passed").asBoolean()) {
                failed = x;
            }
        }
        assertEquals("a critical trade goes to openclaw and knox, and mission control and sentinel hear of it",
                failed.get("name").asText());
        assertEquals(path, failed.get("file").asText());
        assertEquals(lineOf(fileOf(id, path), "- name: a critical trade goes to openclaw and knox"), failed.get("line").asInt());
        JsonNode m = failed.get("mismatches").get(0);
        assertEquals("primary_recipients", m.get("field").asText());
        assertEquals("[\"openclaw\",\"cfo\"]", Json.write(m.get("expected")));
        assertEquals("[\"openclaw\",\"knox\"]", Json.write(m.get("actual")));
        assertEquals(1, failed.get("mismatches").size(), failed.toString());

        // ... and the live rules' scenarios still pass
        assertTrue(json(send("GET", "scenarios", null, null)).get("passed").asBoolean());
    }

    @Test
    void theModelTableIsShownWithTheColumnsAndRowsOfItsCsv() throws Exception {
        HttpResponse<String> r = send("GET", "tables", null, null);

        assertEquals(200, r.statusCode(), r.body());
        JsonNode files = json(r).get("files");
        assertEquals(1, files.size(), r.body());
        JsonNode file = files.get(0);
        assertEquals("dispatch/model.csv", file.get("path").asText());
        assertEquals(0, file.get("errors").size());
        JsonNode t = file.get("tables").get(0);
        assertEquals("model routing weights", t.get("name").asText());
        assertEquals(5, t.get("line").asInt());
        assertEquals(List.of("rule", "group", "salience", "reason", "attachments", "tokens above", "tokens at most",
                "code blocks above", "tool calls above", "tool calls at most", "history above", "weight"), texts(t.get("columns"), "label"));
        assertEquals(List.of("NAME", "AGENDA-GROUP", "PRIORITY", "METADATA", "CONDITION", "CONDITION", "CONDITION", "CONDITION",
                "CONDITION", "CONDITION", "CONDITION", "ACTION"), texts(t.get("columns"), "kind"));
        assertEquals("tokenEstimate > $param", t.get("columns").get(5).get("code").asText());
        JsonNode rows = t.get("rows");
        assertEquals(7, rows.size());
        assertEquals(10, rows.get(0).get("line").asInt());
        assertEquals(List.of("attachments need the heavy model", "score", "700",
                "the message carries an image, audio or video: only the heavy model reads them", "true", "", "", "", "", "", "", "1.00"),
                texts(rows.get(0).get("cells"), null));
        assertEquals(16, rows.get(6).get("line").asInt());
        assertEquals(List.of("deep conversations lean a little heavy", "score", "300",
                "more than 10 turns of history: long sessions carry implicit complexity", "", "", "", "", "", "", "10", "0.10"),
                texts(rows.get(6).get("cells"), null));
    }

    @Test
    void aBrokenTableInADraftIsLocatedAtItsLineAndItsScenariosDoNotRun() throws Exception {
        // Given a draft whose model table has a salience that is not a number on its line 12
        String id = newDraft();
        assertEquals(200, edit(id, "dispatch/model.csv", "medium messages lean a little heavy,score,590,",
                "medium messages lean a little heavy,score,59O,").statusCode());

        // Then the draft's tables show the error at that line
        HttpResponse<String> tables = send("GET", "tables?draft=" + id, null, null);
        assertEquals(200, tables.statusCode(), tables.body());
        JsonNode file = json(tables).get("files").get(0);
        assertEquals("dispatch/model.csv", file.get("path").asText());
        JsonNode error = file.get("errors").get(0);
        assertEquals(lineOf(fileOf(id, "dispatch/model.csv"), ",59O,"), error.get("line").asInt(), error.toString());
        assertEquals(12, error.get("line").asInt());
        assertTrue(error.get("message").asText().startsWith("this decision table cannot be read"), error.toString());

        // ... and its scenarios are refused with the same located error, as any draft that does not compile
        HttpResponse<String> scenarios = send("GET", "scenarios?draft=" + id, null, null);
        assertEquals(422, scenarios.statusCode(), scenarios.body());
        JsonNode refused = json(scenarios);
        assertEquals("draft_does_not_compile", refused.get("error").asText());
        assertEquals(error, refused.get("details").get("errors").get(0));
    }

    @Test
    void aSaveAnswersWithTheWholeCheckAllAtOnce() throws Exception {
        // Given a draft where a hurried analyst left four mistakes: a missing ")" in the routing file, a
        // misspelt recipient in another broker file, a scenario file that is not YAML, and a scenario expecting otherwise
        String id = newDraft();
        String live = "decide.primary(\"vp-trading\").fanOut(\"cfo\", \"mission-control\");";
        String typo = "decide.primary(\"vp-trading\").fanOut(\"cfo\", \"mission-control\";";
        edit(id, "broker/routing.drl", live, typo);
        String extra = "package signalman.broker;\nimport io.signalman.broker.Message;\nglobal io.signalman.broker.Route decide;\n\n"
                + "rule \"risk messages go to the risk monitor\"\n    @reason(\"the subtype starts with risk.\")\n"
                + "    agenda-group \"route\" activation-group \"route\" salience 450\nwhen\n    Message( subtype str[startsWith] \"risk.\" )\n"
                + "then\n    decide.primary(\"risk-monitr\").fanOut(\"cfo\");\nend\n";
        save(id, "broker/risk.drl", extra);
        save(id, "broker/scenarios/hurried.yaml", "- name: a risk alert\n  input: {type: event, subtype: [risk.alert\n");
        HttpResponse<String> r = edit(id, "broker/scenarios/routing.yaml", "primary_recipients: [openclaw, knox]",
                "primary_recipients: [openclaw, cfo]");

        // Then the one answer names the syntax error, the misspelt recipient and the broken scenario file, together
        assertEquals(200, r.statusCode(), r.body());
        JsonNode check = json(r).get("check");
        assertFalse(check.get("ok").asBoolean());
        assertFalse(check.get("compiles").asBoolean());
        List<String> files = texts(check.get("errors"), "file");
        assertTrue(files.contains("broker/routing.drl"), check.toString());
        assertTrue(files.contains("broker/scenarios/hurried.yaml"), check.toString());
        JsonNode misspelt = null;
        for (JsonNode e : check.get("errors")) {
            misspelt = e.get("file").asText().equals("broker/risk.drl") ? e : misspelt;
        }
        assertTrue(misspelt != null && misspelt.get("message").asText().contains("did you mean \"risk-monitor\""), check.toString());
        assertEquals(11, misspelt.get("line").asInt());
        assertEquals(1, check.get("counts").get("scenario_file_errors").asInt());
        // ... and the scenarios could not run, which the answer says rather than counting fewer
        JsonNode scenarios = json(r).get("scenarios");
        assertFalse(scenarios.get("ran").asBoolean());
        assertEquals("broker/scenarios/hurried.yaml", scenarios.get("errors").get(0).get("file").asText());

        // When the rules are fixed, the next save runs every scenario: the one expecting otherwise fails, and the
        // file that is not YAML still counts as an error
        edit(id, "broker/routing.drl", typo, live);
        JsonNode fixed = json(save(id, "broker/risk.drl", extra.replace("risk-monitr", "risk-monitor")));
        assertTrue(fixed.get("check").get("compiles").asBoolean(), fixed.get("check").toString());
        assertFalse(fixed.get("check").get("ok").asBoolean());
        assertEquals(1, fixed.get("check").get("counts").get("errors").asInt(), fixed.get("check").toString());
        assertTrue(fixed.get("scenarios").get("ran").asBoolean());
        assertEquals(1, fixed.get("scenarios").get("failed").asInt());
        assertEquals(scenarioCount(server.server().engine().rulesDir()), fixed.get("scenarios").get("scenarios").asInt());
    }

    @Test
    void aLoggedDecisionIsFoundByItsIdAndTriedAgainWithWhyNot() throws Exception {
        // Given a decision the server made and logged
        HttpResponse<String> routed = HTTP.send(HttpRequest.newBuilder(URI.create(base.replace("/workbench/api/", "/v1/broker/route")))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"envelope\": "
                        + "{\"from_agent\": \"foresight\", \"priority\": \"normal\"}, \"type\": \"event\", "
                        + "\"subtype\": \"trade.executed\"}")).build(), HttpResponse.BodyHandlers.ofString());
        String decisionId = json(routed).get("decision_id").asText();
        Await.until(Duration.ofSeconds(10), "the decision to be logged", () -> {
            try {
                return json(send("GET", "decisions?decision_id=" + decisionId, null, null)).get("decisions").size() == 1;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        // When it is searched for by its id, it is found with its recipients
        JsonNode found = json(send("GET", "decisions?decision_id=" + decisionId, null, null)).get("decisions").get(0);
        assertEquals(decisionId, found.get("decision_id").asText());
        assertEquals("vp-trading", found.get("decision").get("primary_recipients").get(0).asText());
        assertEquals(0, json(send("GET", "decisions?decision_id=01NOSUCHDECISION", null, null)).get("decisions").size());
        JsonNode recent = json(send("GET", "decisions?pack=broker&limit=1", null, null));
        assertEquals(1, recent.get("decisions").size());
        assertTrue(recent.get("whole_log").asBoolean());

        // ... and tried again with why not another rule, with a broken draft beside it
        String broken = newDraft();
        save(broken, "broker/routing.drl", fileOf(broken, "broker/routing.drl").replace("salience 1000", "salience 1000 )"));
        String body = Json.write(Json.object().put("pack", "broker").put("draft", broken)
                .put("why_not", "critical messages go to openclaw and knox").set("input", found.get("input")));
        HttpResponse<String> tried = send("POST", "try", body, null);
        assertEquals(200, tried.statusCode(), tried.body());
        JsonNode t = json(tried);
        // the live rules still answer; the draft's errors are beside them
        assertEquals("trade messages go to VP Trading", t.get("live").get("rule").asText());
        assertTrue(t.get("draft").isNull());
        assertEquals("broker/routing.drl", t.get("draft_error").get("errors").get(0).get("file").asText());
        // why not the critical rule: its constraint, with the value it read
        JsonNode whyNot = t.get("live").get("why_not");
        assertEquals("not-matched", whyNot.get("status").asText());
        assertEquals("normal", whyNot.get("failed").get("values").get("priority").asText(), whyNot.toString());
        // the deciding rule shows the values its conditions read, not only its reason
        JsonNode decided = null;
        for (JsonNode x : t.get("live").get("explain")) {
            decided = x.get("status").asText().equals("fired") && x.get("rule").asText().equals("trade messages go to VP Trading")
                    ? x : decided;
        }
        assertTrue(decided != null && decided.get("constraints").size() > 0, t.get("live").toString());
        assertTrue(decided.get("constraints").toString().contains("trade.executed"), decided.toString());
    }

    @Test
    void theModelTablesColumnsSayWhereTheyAreAndWhatTheyHold() throws Exception {
        JsonNode columns = json(send("GET", "tables", null, null)).get("files").get(0).get("tables").get(0).get("columns");
        assertEquals(List.of("text", "text", "integer", "text", "boolean", "integer", "integer", "integer", "integer", "integer",
                "integer", "number"), texts(columns, "value_type"));
        assertEquals(List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"), texts(columns, "index"));
    }

    @Test
    void theImpactOfAWeightChangeIsSaidInWordsByTheRowWhoseContributionChanged() throws Exception {
        // Given a draft that lowers the weight of the row "long messages lean heavy"
        String id = newDraft();
        edit(id, "dispatch/model.csv", "more than 200 tokens: long prompts are almost always complex\",,200,,,,,,0.35",
                "more than 200 tokens: long prompts are almost always complex\",,200,,,,,,0.20");

        // When its impact is run
        JsonNode job = json(send("POST", "drafts/" + id + "/impact", "{\"decision_log\": false}", TOKEN));
        String jobId = job.get("id").asText();
        Await.until(Duration.ofSeconds(120), "the impact to finish", () -> {
            try {
                return !json(send("GET", "impact/" + jobId, null, null)).get("state").asText().equals("running");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode golden = json(send("GET", "impact/" + jobId, null, null)).get("report").get("golden_history");

        // Then every change is put down to that row, and said in words
        JsonNode words = golden.get("in_words");
        assertEquals(1, words.size(), words.toString());
        JsonNode group = words.get(0);
        assertEquals("long messages lean heavy", group.get("because").get(0).get("rule").asText());
        assertEquals("dispatch/model.csv", group.get("because").get(0).get("file").asText());
        assertEquals(11, group.get("because").get(0).get("line").asInt());
        assertTrue(group.get("because").get(0).get("table_row").asBoolean());
        assertEquals(golden.get("changed").asLong(), group.get("count").asLong());
        long sum = 0;
        for (JsonNode e : group.get("effects")) {
            sum += e.get("count").asLong();
            assertEquals(e.get("count").asLong() - e.get("examples").size(), e.get("more").asLong());
            assertTrue(e.get("words").asText().equals("move from the heavy to the light model")
                    || e.get("words").asText().equals("keep their model with a lower score"), e.toString());
        }
        assertEquals(group.get("count").asLong(), sum);
        assertTrue(group.get("sentence").asText().matches("\\d+ messages? (moves?|keeps?) .*"), group.toString());
    }

    /** The seed's model-routing weights as the decision table the live rules ship (the same rules), so there is a table to show. */
    static void useModelWeightsTable(Path rules) throws java.io.IOException {
        Files.delete(rules.resolve("dispatch/model.drl"));
        Files.copy(Path.of("src/test/resources/workbench/seed-model-weights.csv"), rules.resolve("dispatch/model.csv"));
    }

    /** How many scenarios the YAML files under {@code rules/<pack>/scenarios/} hold, each file read as a plain list. */
    static int scenarioCount(Path rules) throws java.io.IOException {
        com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        int n = 0;
        try (java.util.stream.Stream<Path> walk = Files.walk(rules)) {
            for (Path p : walk.filter(f -> f.getParent().getFileName().toString().equals("scenarios")
                    && f.toString().endsWith(".yaml")).toList()) {
                n += yaml.readTree(p.toFile()).size();
            }
        }
        return n;
    }

    private static List<String> texts(JsonNode array, String field) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(x -> out.add(field == null ? x.asText() : x.get(field).asText()));
        return out;
    }

    private static int lineOf(String text, String part) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line with " + part);
    }

    private static String fileOf(String draft, String path) throws Exception {
        HttpResponse<String> r = send("GET", "drafts/" + draft + "/file?path=" + path, null, null);
        assertEquals(200, r.statusCode(), r.body());
        return json(r).get("text").asText();
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8));
    }

    /** Saves a file of a draft at the draft's current version, as the page does. */
    static HttpResponse<String> save(String id, String path, String text) throws Exception {
        long version = json(send("GET", "drafts/" + id, null, null)).get("version").asLong();
        return send("PUT", "drafts/" + id + "/file?path=" + path, Json.write(Json.object().put("text", text).put("version", version)),
                TOKEN);
    }

    /**
     * Replaces the first {@code from} in a file of a draft with {@code to} (failing when the file has
     * none) and saves it, as the page does; the save's answer.
     */
    private static HttpResponse<String> edit(String id, String path, String from, String to) throws Exception {
        String text = fileOf(id, path);
        int at = text.indexOf(from);
        assertTrue(at >= 0, () -> "no " + from + " in " + path + " of draft " + id);
        return save(id, path, text.substring(0, at) + to + text.substring(at + from.length()));
    }

    private static String newDraft() throws Exception {
        HttpResponse<String> r = send("POST", "drafts", null, TOKEN);
        assertEquals(201, r.statusCode(), r.body());
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8)).get("id").asText();
    }

    private static HttpResponse<String> send(String method, String path, String body, String token) {
        return HttpCalls.send(base, method, path, body, token);
    }
}
