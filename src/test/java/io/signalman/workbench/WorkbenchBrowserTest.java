package io.signalman.workbench;

import static io.signalman.TestBundles.lineOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.ServerConfig;
import io.signalman.http.TestServer;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;

/**
 * The workbench in a real browser (issues 20 and 28): an analyst opens it, edits a cell of the
 * model table in the grid (a comma for a dot is refused in words), changes where trade messages go
 * without touching a terminal, sees the compile error of a typo at its line (and Try still
 * answering with the live rules beside the draft's errors), fixes it, sees in the same save that
 * the trading desk's scenario now fails, brings it up to date, sees the impact in words, activates
 * it with a note and sees the draft closed; the grid's draft, now out of date, is rebased, its
 * impact put down to the table row that changed, and activated; the first activation is then
 * reverted while the second stays; a logged decision is found by its id and opened in Try with a
 * why-not; the org chart says who reports to whom as its file does. Along the way: a rule named
 * like HTML shows as text, and activation without the token is refused. An operator runs a draft as
 * a live trial from its tab.
 * Screenshots go to {@code target/workbench} (or {@code -Dworkbench.screenshots=docs/workbench}).
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class WorkbenchBrowserTest {

    private static final String TOKEN = "workbench-browser-test-token";
    private static final String LIVE_LINE = "decide.primary(\"vp-trading\").fanOut(\"cfo\", \"mission-control\");";
    private static final String TYPO_LINE = "decide.primary(\"cfo\").fanOut(\"mission-control\";";
    private static final String FIXED_LINE = "decide.primary(\"cfo\").fanOut(\"mission-control\");";
    private static final String TRADE_SCENARIO = "an executed trade goes to VP Trading, and the CFO hears of it";
    private static final String SCENARIO_EXPECTED = "primary_recipients: [vp-trading]\n    fan_out: [cfo, mission-control]";
    private static final String SCENARIO_UPDATED = "primary_recipients: [cfo]\n    fan_out: [mission-control]";
    private static final String TRADE = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"}, "
            + "\"type\": \"event\", \"subtype\": \"trade.executed\", \"payload\": {}}";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    @Order(1)
    static final TestServer server = TestServer.starting(dir -> {
        ServerConfig config = TestBundles.editableSeedServer(dir).withAdminToken(TOKEN);
        Files.copy(Path.of("src/test/resources/workbench/rule-named-like-html.drl"),
                config.rules().resolve("broker/rule-named-like-html.drl"));
        Files.copy(Path.of("src/test/resources/workbench/trades-scenario.yaml"),
                config.rules().resolve("broker/scenarios/trades.yaml"));
        WorkbenchApiTest.useModelWeightsTable(config.rules());
        return Server.start(config, new WorkbenchOptions(null, "analyst-ana"));
    });
    @RegisterExtension
    @Order(2)
    static final Browser browser = Browser.of(server);
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        base = "http://127.0.0.1:" + server.port();
    }

    @Test
    @Order(1)
    void analystChangesWhereTradeMessagesGoAndActivatesItFromTheBrowser() throws Exception {
        // Given decisions the server has logged: trade messages, all to VP Trading today.
        for (int i = 0; i < 3; i++) {
            assertEquals("vp-trading", route(TRADE).path("primary_recipients").path(0).asText());
        }
        Await.until(Duration.ofSeconds(10), "the decision log to be written", () -> server.server().decisionLog().written() >= 3);

        int scenarioCount = WorkbenchApiTest.scenarioCount(server.server().engine().rulesDir());

        // The rules as they run; the rule named like HTML is text, and nothing ran.
        browser.driver.get(base + "/workbench/");
        browser.waitForText(By.cssSelector("#tab-rules .rule-name"), "trade messages go to VP Trading");
        WebElement html = browser.waitForText(By.cssSelector("#tab-rules .rule-name"), "<img src=x onerror=alert(1)>");
        assertEquals("<img src=x onerror=alert(1)>", html.getText());
        assertTrue(browser.driver.findElements(By.cssSelector("img")).isEmpty(), "no element came out of a rule's name");
        assertNoAlert();
        browser.shot("rules");

        // Scenarios and tables: every scenario passes, the model table is a table.
        typeToken(TOKEN);
        browser.click(By.cssSelector("#tabs button[data-tab=scenarios]"));
        browser.waitForText(By.id("scenario-status"), scenarioCount + " scenarios passed (the live rules)");
        browser.waitForText(By.cssSelector("#tables table.decision-table tr[data-line='11']"), "long messages lean heavy");
        browser.shot("scenarios");
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.cssSelector("#tables h4")));
        browser.shot("tables");

        // A table cell edited in the grid: "0,40" is refused in words, "0.40" is saved back into the CSV of a new draft.
        browser.click(By.cssSelector("#tables button.grid-edit[data-table='model routing weights']"));
        WebElement weight = browser.waitFor("the grid", d -> d.findElement(By.cssSelector(".grid tr[data-line='11'] input[data-col='11']")));
        assertEquals("0.35", weight.getDomProperty("value"));
        weight.sendKeys(Keys.chord(Keys.CONTROL, "a"), "0,40");
        browser.waitForText(By.id("grid-problems"), "line 11, weight: “0,40” is not a number: write decimals with a dot, 0.40");
        assertFalse(browser.driver.findElement(By.id("grid-save")).isEnabled(), "a grid with a bad cell is not saved");
        browser.js("arguments[0].scrollIntoView()", weight);
        browser.shot("table-grid");
        weight.sendKeys(Keys.chord(Keys.CONTROL, "a"), "0.40");
        browser.click(By.id("grid-save"));
        browser.waitForText(By.id("notice"), "dispatch/model.csv saved to draft");
        browser.waitForText(By.id("notice"), "all " + scenarioCount + " scenarios pass");
        String gridDraft = (String) browser.js("return arguments[0].value", browser.driver.findElement(By.id("suite-draft")));
        browser.waitForText(By.cssSelector("#tables table.decision-table tr[data-line='11']"), "0.40");
        String csv = draftFile(gridDraft, "dispatch/model.csv");
        String liveCsv = Files.readString(server.server().engine().rulesDir().resolve("dispatch/model.csv"));
        assertEquals(liveCsv.replace("complex\",,200,,,,,,0.35", "complex\",,200,,,,,,0.40"), csv, "only the edited cell changed");

        // A draft of the live rules ("New draft" says at once that it is working); the broker's routing opens.
        browser.click(By.cssSelector("#tabs button[data-tab=drafts]"));
        browser.waitFor("the draft tab", d -> d.findElement(By.id("draft-new")).isDisplayed());
        assertEquals("Copying the live rules into a new draft and checking it…", browser.js("arguments[0].click();"
                + " return document.getElementById('draft-working').textContent", browser.driver.findElement(By.id("draft-new"))));
        browser.waitFor("the new draft", d -> !gridDraft.equals(selectedDraft()) && !selectedDraft().isEmpty() ? true : null);
        String draft = selectedDraft();
        browser.waitForText(By.id("draft-file"), "broker/routing.drl");
        browser.waitForText(By.id("check-status"), "The draft compiles");
        assertEquals("", browser.driver.findElement(By.id("draft-working")).getText());

        // A typo: the error is shown at its line, in the list and in the editor's gutter.
        int line = lineOf(server.server().engine().rulesDir().resolve("broker/routing.drl"), LIVE_LINE);
        replaceInEditor(LIVE_LINE, TYPO_LINE);
        browser.click(By.id("draft-save"));
        browser.waitForText(By.id("check-status"), "does not compile");
        WebElement error = browser.waitFor("an error in the list", d -> d.findElement(By.cssSelector("#check-problems li.error")));
        assertEquals("broker/routing.drl", error.getDomAttribute("data-file"));
        assertEquals(String.valueOf(line), error.getDomAttribute("data-line"), error.getText());
        assertEquals(Boolean.TRUE, browser.js("const m = arguments[0].CodeMirror.lineInfo(arguments[1]).gutterMarkers;"
                + " return !!(m && m.errors);", browser.driver.findElement(By.id("draft-editor")), line - 1));
        browser.shot("draft-error");

        // Try with the broken draft: the live rules still decide, the draft's errors are listed as text beside them.
        browser.click(By.cssSelector("#tabs button[data-tab=try]"));
        select(By.id("try-draft"), draft);
        browser.click(By.id("try-go"));
        browser.waitForText(By.id("try-draft-error"), "has 1 error(s)");
        browser.waitForText(By.cssSelector("#try-out [data-side=live] .decided-by"), "");
        assertFalse(browser.driver.findElement(By.id("try-out")).getText().contains("[object"),
                browser.driver.findElement(By.id("try-out")).getText());

        // Fixed, it compiles, and the same save says that the trading desk's scenario now fails.
        browser.click(By.cssSelector("#tabs button[data-tab=drafts]"));
        replaceInEditor(TYPO_LINE, FIXED_LINE);
        browser.click(By.id("draft-save"));
        browser.waitForText(By.id("check-status"), "Saved. The draft compiles with no warnings, but 1 of " + scenarioCount
                + " scenarios fail.");
        browser.waitForText(By.cssSelector("#check-problems li.scenario-failure[data-name='" + TRADE_SCENARIO + "']"),
                "primary_recipients expected [\"vp-trading\"], came out [\"cfo\"]");
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.id("draft-check")));
        browser.shot("save-scenario-failed");
        // ... and Try no longer shows the draft's old errors: its column decides.
        browser.click(By.cssSelector("#tabs button[data-tab=try]"));
        browser.click(By.id("try-go"));
        browser.waitForText(By.cssSelector("#try-out [data-side=draft] .decided-by"), "");
        assertTrue(browser.driver.findElements(By.id("try-draft-error")).isEmpty());

        // The trading desk's scenario fails in the draft, saying what it expected and what came out ...
        browser.click(By.cssSelector("#tabs button[data-tab=scenarios]"));
        select(By.id("suite-draft"), draft);
        browser.waitForText(By.id("scenario-status"), "1 of " + scenarioCount + " scenarios failed (draft " + draft + ")");
        WebElement failed = browser.waitFor("the failed scenario", d -> d.findElement(By.cssSelector(
                "#tab-scenarios .scenario.fail[data-name='" + TRADE_SCENARIO + "']")));
        String mismatch = failed.findElement(By.cssSelector("tr[data-field=primary_recipients]")).getText();
        assertTrue(mismatch.contains("[\"vp-trading\"]") && mismatch.contains("[\"cfo\"]"), mismatch);
        browser.js("arguments[0].scrollIntoView(false)", failed);
        browser.shot("scenario-failed");

        // ... until the analyst brings it up to date, in the same draft.
        failed.findElement(By.cssSelector("button.edit")).click();
        browser.waitForText(By.id("draft-file"), "broker/scenarios/trades.yaml");
        assertEquals(draft, selectedDraft());
        replaceInEditor(SCENARIO_EXPECTED, SCENARIO_UPDATED);
        browser.click(By.id("draft-save"));
        browser.waitForText(By.id("check-status"), "Saved. The draft compiles with no warnings; all " + scenarioCount + " scenarios pass.");

        // The impact on the golden history and on what this server logged, in words.
        browser.click(By.id("impact-run"));
        browser.waitForText(By.id("impact-out"), "On the decisions this server logged");
        String impact = browser.driver.findElement(By.id("impact-out")).getText();
        assertTrue(impact.contains("Because of the rule “trade messages go to VP Trading”"), impact);
        assertTrue(impact.contains("3 messages go to cfo instead of vp-trading"), impact);
        assertTrue(impact.contains("3 decisions replayed: 0 unchanged, 3 changed"), impact);
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.id("impact")));
        browser.shot("impact");

        // Open a changed decision in "Try a message": live and draft side by side.
        browser.click(By.cssSelector("#impact-out button.small"));
        browser.waitForText(By.cssSelector("#try-out .column"), "Draft");
        browser.shot("try");
        browser.click(By.cssSelector("#tabs button[data-tab=drafts]"));

        // Without the token, the activate button is disabled and says why (the server would refuse it: 401).
        typeToken("");
        browser.driver.findElement(By.id("activate-note")).sendKeys("Trades go to the CFO from today (finance reorg)");
        browser.waitFor("the activate button to say what it needs", d -> {
            WebElement go = d.findElement(By.id("activate-go"));
            return !go.isEnabled() && String.valueOf(go.getDomAttribute("title")).contains("enter your token") ? true : null;
        });

        // With it, the gate refuses until the golden-history changes are accepted, then activates.
        typeToken(TOKEN);
        browser.click(By.id("activate-go"));
        browser.waitForText(By.id("activate-result"), "Refused (409 golden_history_changes)");
        browser.click(By.id("activate-accept"));
        browser.click(By.id("activate-go"));

        // Activated, the draft is closed: read-only, its note and tick gone with the form.
        browser.waitForText(By.id("draft-status"), "Activated as activation #1");
        assertEquals("activated", browser.driver.findElement(By.id("draft-status")).getDomAttribute("data-status"));
        assertTrue(browser.driver.findElements(By.id("activate-note")).isEmpty(), "no note to carry over");
        assertTrue(browser.driver.findElements(By.id("activate-accept")).isEmpty(), "no tick to carry over");
        assertEquals("nocursor", browser.js("return arguments[0].CodeMirror.getOption('readOnly')",
                browser.driver.findElement(By.id("draft-editor"))));
        browser.shot("activated");

        // A plain request is decided by the new rule.
        JsonNode d = route(TRADE);
        assertEquals("[\"cfo\"]", Json.write(d.get("primary_recipients")), Json.write(d));
        assertEquals("trade messages go to VP Trading", d.get("rule").asText());
        assertTrue(Files.readString(server.server().engine().rulesDir().resolve("broker/routing.drl")).contains(FIXED_LINE));
        JsonNode rec = lastActivation();
        assertEquals("analyst-ana", rec.get("who").asText());
        assertEquals("Trades go to the CFO from today (finance reorg)", rec.get("note").asText());
        assertEquals(d.get("rules_revision").asText(), rec.get("new_revision").asText());

        // The grid's draft is now out of date; rebased, it keeps its weight and takes the CFO change.
        select(By.id("draft-select"), gridDraft);
        browser.waitForText(By.id("draft-status"), "Out of date");
        browser.shot("draft-out-of-date");
        browser.click(By.id("draft-rebase"));
        browser.waitForText(By.id("notice"), "Rebased onto the live rules");
        browser.waitFor("the rebased draft", dr -> "open".equals(dr.findElement(By.id("draft-status")).getDomAttribute("data-status"))
                ? true : null);
        assertTrue(draftFile(gridDraft, "broker/routing.drl").contains(FIXED_LINE));
        assertTrue(draftFile(gridDraft, "dispatch/model.csv").contains("complex\",,200,,,,,,0.40"));

        // Its impact says what the weight change does, in words, by the table row that changed.
        browser.click(By.id("impact-run"));
        browser.waitForText(By.id("impact-out"), "On the decisions this server logged");
        String words = browser.waitForText(By.id("impact-out"), "Because of the table row “long messages lean heavy” (dispatch/model.csv:11)")
                .getText();
        assertTrue(words.matches("(?s).*\\d+ messages keep their model with a higher score.*"), words);
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.id("impact")));
        browser.shot("impact-words");
        browser.driver.findElement(By.id("activate-note")).sendKeys("Long messages lean heavier (0.40)");
        browser.click(By.id("activate-accept"));
        browser.click(By.id("activate-go"));
        browser.waitForText(By.id("draft-status"), "Activated as activation #2");

        // Activations: rolling back #1 would undo #2 too, and says so; reverting #1 alone keeps #2.
        browser.click(By.cssSelector("#tabs button[data-tab=history]"));
        browser.waitForText(By.cssSelector("#tab-history .activation[data-seq='1'] .rollback-undoes"),
                "This also undoes the later #2 (Long messages lean heavier (0.40))");
        browser.shot("history");
        browser.click(By.cssSelector("#tab-history .activation[data-seq='1'] button.revert"));
        browser.waitForText(By.id("notice"), "reverts #1; every later activation stays");
        browser.waitForText(By.id("draft-status"), "revert of activation #1");
        String revert = selectedDraft();
        assertTrue(((String) browser.js("return arguments[0].value", browser.driver.findElement(By.id("activate-note"))))
                .startsWith("Revert activation #1 (Trades go to the CFO from today (finance reorg))"));
        browser.shot("revert");
        browser.click(By.id("activate-accept"));
        browser.click(By.id("activate-go"));
        browser.waitForText(By.id("draft-status"), "Activated as activation #3");
        assertEquals("[\"vp-trading\"]", Json.write(route(TRADE).get("primary_recipients")), "#1 is undone");
        assertTrue(Files.readString(server.server().engine().rulesDir().resolve("dispatch/model.csv")).contains("complex\",,200,,,,,,0.40"),
                "#2 stays");
        assertEquals("draft " + revert, lastActivation().get("source").asText());

        // A live decision, found in the log by its id, opens in Try with its explanation and a why-not.
        long before = server.server().decisionLog().written();
        String id = route(TRADE).get("decision_id").asText();
        Await.until(Duration.ofSeconds(10), "the decision to be logged", () -> server.server().decisionLog().written() > before);
        browser.click(By.cssSelector("#tabs button[data-tab=live]"));
        WebElement idBox = browser.driver.findElement(By.id("live-id"));
        idBox.sendKeys(id);
        browser.click(By.id("live-search"));
        browser.waitForText(By.id("live-status"), "1 decision(s), newest first");
        WebElement row = browser.waitForText(By.cssSelector("#live-list tr.decision-row[data-id='" + id + "']"),
                "vp-trading (copied: cfo, mission-control)");
        browser.shot("live");
        row.click();
        browser.waitForText(By.id("try-origin"), "Decision " + id);
        // What happened beside today's answer, and a sentence that says whether they differ
        browser.waitForText(By.cssSelector("#try-out [data-side=recorded] .decided-by"), "trade messages go to VP Trading");
        browser.waitForText(By.id("try-recorded-verdict"), "answer as was recorded");
        browser.waitForText(By.cssSelector("#try-out [data-side=live] .decided-by"), "trade messages go to VP Trading");
        select(By.id("try-why-not"), "critical messages go to openclaw and knox");
        browser.waitForText(By.cssSelector("#try-out [data-side=live] .why-not"), "the priority is critical: no (priority is \"normal\")");
        browser.waitForText(By.cssSelector("#try-out [data-side=live] li.status-fired ul.constraints"), "trade.");
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.cssSelector("#try-out [data-side=live] .why-not")));
        browser.shot("try-why-not");

        // The org chart says who reports to whom as the file does: knox to no one, openclaw to knox.
        browser.click(By.cssSelector("#tabs button[data-tab=diagrams]"));
        browser.waitForText(By.cssSelector("#tab-diagrams tr[data-agent='knox'] td.reports-to"), "no one");
        assertEquals("knox", browser.driver.findElement(By.cssSelector("#tab-diagrams tr[data-agent='openclaw'] td.reports-to")).getText());
        browser.waitFor("an FSM diagram", dr -> dr.findElements(By.cssSelector("#tab-diagrams .diagram svg")).size() > 0 ? true : null);
        browser.shot("machines");
        assertNoAlert();
        assertNoPolicyViolations();
    }

    /**
     * An operator tries a draft on live traffic from the workbench: starts it in shadow from the
     * Live trials tab, sees its figures follow the traffic without reloading the page, the
     * divergence grouped by the rules that decided, opens an example in Try beside the draft, and
     * aborts it. The draft is discarded at the end, so the analyst's test finds none of it.
     */
    @Test
    @Order(2)
    void operatorTriesADraftOnLiveTrafficFromTheLiveTrialsTab() throws Exception {
        // Given a draft in which trade messages go to VP Engineering
        String draft = Json.parse(workbench("POST", "drafts", null)).get("id").asText();
        String routing = draftFile(draft, "broker/routing.drl");
        workbench("PUT", "drafts/" + draft + "/file?path=broker/routing.drl", Json.write(Json.object().put("version", 1)
                .put("text", routing.replace(LIVE_LINE, "decide.primary(\"vp-engineering\").fanOut(\"cfo\", \"mission-control\");"))));
        // ... and the desk's scenario brought up to date in the same draft, so that the promotion's gate passes it
        String scenario = draftFile(draft, "broker/scenarios/trades.yaml");
        workbench("PUT", "drafts/" + draft + "/file?path=broker/scenarios/trades.yaml", Json.write(Json.object().put("version", 2)
                .put("text", scenario.replaceAll("primary_recipients: \\[[^]]*]\\n(\\s*)fan_out: \\[[^]]*]",
                        "primary_recipients: [vp-engineering]\n$1fan_out: [cfo, mission-control]"))));

        // When it is started in shadow from the tab
        browser.driver.get(base + "/workbench/");
        typeToken(TOKEN);
        browser.click(By.cssSelector("#tabs button[data-tab=trials]"));
        select(By.id("trial-draft"), draft);
        select(By.id("trial-mode"), "shadow");
        browser.click(By.id("trial-start"));
        browser.waitForText(By.id("trial-state"), "running");

        // Then its figures follow the traffic while the tab is open
        for (int i = 0; i < 3; i++) {
            assertEquals("vp-trading", route(TRADE).path("primary_recipients").path(0).asText(), "in shadow the client keeps the live answer");
        }
        browser.waitForText(By.cssSelector("#trial-figures .comparisons"), "3 comparisons");
        route(TRADE);
        browser.waitForText(By.cssSelector("#trial-figures .comparisons"), "4 comparisons");
        browser.waitForText(By.cssSelector("#trial-figures .agreement"), "0.0%");
        browser.waitForText(By.cssSelector("#trial-arms tr[data-arm=live] .answered"), "4");
        // ... the divergence grouped by the rules that decided, with what differs
        // (each read waits afresh: the panel is drawn again as the figures come, so an element read once may be gone)
        browser.waitForText(By.cssSelector("#trial-divergences .divergence"), "4 in broker");
        browser.waitForText(By.cssSelector("#trial-divergences .divergence"), "trade messages go to VP Trading");
        browser.waitForText(By.cssSelector("#trial-divergences .divergence"), "primary_recipients: [\"vp-trading\"] → [\"vp-engineering\"]");
        browser.shot("trial");

        // An example opens in Try, the live rules and the draft side by side
        browser.click(By.cssSelector("#trial-divergences button.open-in-try"));
        browser.waitForText(By.id("try-origin"), "and the draft");
        browser.waitForText(By.cssSelector("#try-out [data-side=live] table.fields"), "vp-trading");
        browser.waitForText(By.cssSelector("#try-out [data-side=draft] table.fields"), "vp-engineering");

        // The figures read as sentences
        browser.click(By.cssSelector("#tabs button[data-tab=trials]"));
        browser.waitForText(By.id("trial-words"), "The draft disagrees with the live rules on 4 of 4 messages (100%)");

        // When the operator moves it to a 20% canary by clicks, at a person's pace
        select(By.id("trial-change-mode"), "canary");
        WebElement percent = browser.driver.findElement(By.id("trial-change-percent"));
        percent.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        percent.sendKeys("20");
        Thread.sleep(1_000);
        assertEquals("20", percent.getDomProperty("value"), "what a person types survives the figures coming in");
        browser.click(By.id("trial-change"));
        browser.waitForText(By.id("trial-state"), "canary at 20%");
        browser.waitForText(By.id("trial-words"), "senders are assigned whole, so the share of messages differs from 20%");

        // ... stops it for now and resumes it
        browser.click(By.id("trial-stop"));
        browser.waitForText(By.id("trial-state"), "stopped");
        browser.waitForText(By.id("trial-action-out"), "Stopped: every message is decided by the live rules");
        assertFalse(server.server().trials().runningHere());
        Thread.sleep(1_000);
        browser.click(By.id("trial-resume"));
        browser.waitForText(By.id("trial-state"), "running");
        browser.waitForText(By.id("trial-state"), "canary at 20%");
        assertTrue(server.server().trials().runningHere());

        // ... and promotes it with a note, confirmed by a second click
        WebElement note = browser.driver.findElement(By.id("trial-note"));
        note.sendKeys("the desk agrees after a day of canary");
        Thread.sleep(1_000);
        assertEquals("the desk agrees after a day of canary", note.getDomProperty("value"), "what a person types survives");
        browser.driver.findElement(By.id("trial-accept")).click();
        browser.click(By.id("trial-promote"));
        browser.waitForText(By.id("trial-promote"), "Click again to promote");
        assertTrue(server.server().trials().runningHere(), "one click promotes nothing");
        Thread.sleep(1_000);
        browser.click(By.id("trial-promote"));
        String outcome = browser.waitFor("the promotion's outcome", d -> {
            try {
                if (d.findElement(By.id("trial-state")).getText().contains("promoted")) {
                    return "promoted";
                }
                String out = d.findElement(By.id("trial-action-out")).getText();
                return out.startsWith("Refused") ? out : null;
            } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException e) {
                return null;
            }
        });
        assertEquals("promoted", outcome);
        browser.waitForText(By.id("trial-action-out"), "Promoted: the draft is live.");
        assertFalse(server.server().trials().runningHere());
        assertEquals("vp-engineering", route(TRADE).path("primary_recipients").path(0).asText(), "the candidate is live");
        browser.waitForText(By.id("revision"), server.server().engine().bundle().revision().substring(0, 12));
        workbench("DELETE", "drafts/" + draft, null);

        // A candidate that breaks an invariant on live traffic is refused promotion, the invariant named on screen
        String widened = Json.parse(workbench("POST", "drafts", null)).get("id").asText();
        String text = draftFile(widened, "broker/routing.drl");
        workbench("PUT", "drafts/" + widened + "/file?path=broker/routing.drl", Json.write(Json.object().put("version", 1)
                .put("text", text.replace("    Message( priority == \"critical\" )\n",
                        "    Message( priority == \"critical\" || priority == \"high\" )\n"))));
        browser.driver.navigate().refresh();
        browser.click(By.cssSelector("#tabs button[data-tab=trials]"));
        select(By.id("trial-draft"), widened);
        select(By.id("trial-mode"), "shadow");
        browser.click(By.id("trial-start"));
        browser.waitForText(By.id("trial-state"), "running");
        route("{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"high\"}, \"type\": \"event\", "
                + "\"subtype\": \"memory.committed\"}");
        browser.waitForText(By.id("trial-violations"), "memory commits routed by subtype never fan out");
        browser.driver.findElement(By.id("trial-note")).sendKeys("high is critical too");
        browser.driver.findElement(By.id("trial-accept")).click();
        browser.click(By.id("trial-promote"));
        browser.click(By.id("trial-promote"));
        browser.waitForText(By.id("trial-action-out"), "Refused (409)");
        browser.waitForText(By.id("trial-action-out"), "memory commits routed by subtype never fan out");
        browser.shot("trial-refused");
        assertFalse(browser.driver.findElement(By.tagName("body")).getText().contains("[object"), "no object shown as text");
        browser.click(By.id("trial-abort"));
        browser.click(By.id("trial-abort"));
        browser.waitForText(By.id("trial-state"), "aborted");
        workbench("DELETE", "drafts/" + widened, null);
        assertNoAlert();
        assertNoPolicyViolations();
    }

    /** Chooses an option of a select as a person would (the page listens for change). */
    private static void select(By by, String value) {
        browser.waitFor(by + " to offer " + value, d -> d.findElements(By.cssSelector("#" + d.findElement(by).getDomAttribute("id")
                + " option")).stream().anyMatch(o -> value.equals(o.getDomAttribute("value"))) ? true : null);
        new org.openqa.selenium.support.ui.Select(browser.driver.findElement(by)).selectByValue(value);
    }

    private static String selectedDraft() {
        return (String) browser.js("return document.getElementById('draft-select').value");
    }

    private static String draftFile(String draft, String path) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/workbench/api/drafts/" + draft + "/file?path="
                + path)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), new String(r.body()));
        return Json.parse(r.body()).get("text").asText();
    }

    /** A workbench API call with the token, answered 2xx; the body. */
    private static byte[] workbench(String method, String path, String body) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/workbench/api/" + path))
                .header("authorization", "Bearer " + TOKEN).header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertTrue(r.statusCode() / 100 == 2, r.statusCode() + " " + new String(r.body()));
        return r.body();
    }

    private static JsonNode lastActivation() throws Exception {
        List<String> audit = Files.readAllLines(server.dir().resolve("data/activations.jsonl"));
        return Json.parse(audit.get(audit.size() - 1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void typeToken(String token) {
        WebElement t = browser.driver.findElement(By.id("token"));
        t.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        t.sendKeys(token, Keys.TAB);
        browser.waitFor("the token to be taken", d -> token.equals(browser.js("return sessionStorage.getItem("
                + "'signalman.workbench.token') || ''")) ? true : null);
    }

    /** Edits the open file through the editor's own API, as typing would. */
    private static void replaceInEditor(String from, String to) {
        Object ok = browser.js("const cm = arguments[0].CodeMirror; const v = cm.getValue();"
                + " if (!v.includes(arguments[1])) return false; cm.setValue(v.replace(arguments[1], arguments[2])); return true;",
                browser.driver.findElement(By.id("draft-editor")), from, to);
        assertEquals(Boolean.TRUE, ok, "the editor shows " + from);
    }


    private static JsonNode route(String body) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/broker/route"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), new String(r.body()));
        return Json.parse(r.body());
    }

    private static void assertNoAlert() {
        try {
            browser.driver.switchTo().alert();
            throw new AssertionError("an alert was opened: analyst-written text ran as code");
        } catch (NoAlertPresentException expected) {
            // nothing ran
        }
    }

    /** The page breaks none of its own Content-Security-Policy (it would show in the console). */
    private static void assertNoPolicyViolations() {
        List<String> violations = browser.driver.manage().logs().get("browser").getAll().stream().map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy") || m.contains("Content-Security-Policy")).toList();
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }
}
