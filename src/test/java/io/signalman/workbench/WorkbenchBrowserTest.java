package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.http.Server;
import io.signalman.http.ServerConfig;
import io.signalman.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;

/**
 * The workbench in a real browser (issue 20): an analyst opens it, changes where trade messages
 * go without touching a terminal, sees the compile error of a typo at its line, fixes it, sees
 * the impact on the golden history and on the decisions the server logged, activates it with a
 * note, and the next plain {@code POST /v1/broker/route} is decided by the new rule. Along the
 * way: a rule named like HTML shows as text, every scenario passes and the model table shows as a
 * table, the draft's change fails the trading desk's scenario (shown with what was expected and
 * what came out) until the analyst brings it up to date in the same draft, and activation without
 * the token is refused.
 * Screenshots go to {@code target/workbench} (or {@code -Dworkbench.screenshots=docs/workbench}).
 */
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

    @TempDir
    static Path dir;
    private static Server server;
    private static Browser browser;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        Files.copy(Path.of("src/test/resources/workbench/rule-named-like-html.drl"), rules.resolve("broker/rule-named-like-html.drl"));
        Files.copy(Path.of("src/test/resources/workbench/trades-scenario.yaml"), rules.resolve("broker/scenarios/trades.yaml"));
        WorkbenchApiTest.useModelWeightsTable(rules);
        TestBundles.copyTree(TestBundles.FIXTURES, dir.resolve("fixtures"));
        server = Server.start(ServerConfig.defaults().withPort(0).withRules(rules).withFixtures(dir.resolve("fixtures"))
                .withData(dir.resolve("data")).withAdminToken(TOKEN), new WorkbenchOptions(null, "analyst-ana"));
        base = "http://127.0.0.1:" + server.port();
        browser = new Browser(dir.resolve("profile"), Path.of(System.getProperty("workbench.screenshots", "target/workbench")));
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void analystChangesWhereTradeMessagesGoAndActivatesItFromTheBrowser() throws Exception {
        // Given decisions the server has logged: trade messages, all to VP Trading today.
        for (int i = 0; i < 3; i++) {
            assertEquals("vp-trading", route(TRADE).path("primary_recipients").path(0).asText());
        }
        Await.until(Duration.ofSeconds(10), "the decision log to be written", () -> server.decisionLog().written() >= 3);

        int scenarioCount = WorkbenchApiTest.scenarioCount(server.engine().rulesDir());

        // The rules as they run; the rule named like HTML is text, and nothing ran.
        browser.driver.get(base + "/workbench/");
        browser.waitForText(By.cssSelector("#tab-rules .rule-name"), "trade messages go to VP Trading");
        WebElement html = browser.waitForText(By.cssSelector("#tab-rules .rule-name"), "<img src=x onerror=alert(1)>");
        assertEquals("<img src=x onerror=alert(1)>", html.getText());
        assertTrue(browser.driver.findElements(By.cssSelector("img")).isEmpty(), "no element came out of a rule's name");
        assertNoAlert();
        browser.shot("rules");

        // Scenarios and tables: every scenario passes, the model table is a table; "Edit" opens it in a new draft.
        typeToken(TOKEN);
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=scenarios]")).click();
        browser.waitForText(By.id("scenario-status"), scenarioCount + " scenarios passed (the live rules)");
        browser.waitForText(By.cssSelector("#tables table.decision-table tr[data-line='11']"), "long messages lean heavy");
        browser.shot("scenarios");
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.cssSelector("#tables h4")));
        browser.shot("tables");
        browser.driver.findElement(By.cssSelector("#tables button.edit[data-path='dispatch/model.csv']")).click();
        browser.waitForText(By.id("draft-file"), "dispatch/model.csv");

        // A draft of the live rules; the broker's routing opens in the editor.
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=drafts]")).click();
        browser.waitFor("the draft tab", d -> d.findElement(By.id("draft-new")).isDisplayed());
        browser.driver.findElement(By.id("draft-new")).click();
        browser.waitForText(By.id("draft-file"), "broker/routing.drl");
        browser.waitForText(By.id("check-status"), "The draft compiles");

        // A typo: the error is shown at its line, in the list and in the editor's gutter.
        int line = lineOf(server.engine().rulesDir().resolve("broker/routing.drl"), LIVE_LINE);
        replaceInEditor(LIVE_LINE, TYPO_LINE);
        browser.driver.findElement(By.id("draft-save")).click();
        browser.waitForText(By.id("check-status"), "does not compile");
        WebElement error = browser.waitFor("an error in the list", d -> d.findElement(By.cssSelector("#check-problems li.error")));
        assertEquals("broker/routing.drl", error.getDomAttribute("data-file"));
        assertEquals(String.valueOf(line), error.getDomAttribute("data-line"), error.getText());
        assertEquals(Boolean.TRUE, browser.js("const m = arguments[0].CodeMirror.lineInfo(arguments[1]).gutterMarkers;"
                + " return !!(m && m.errors);", browser.driver.findElement(By.id("draft-editor")), line - 1));
        browser.shot("draft-error");

        // Fixed: it compiles.
        replaceInEditor(TYPO_LINE, FIXED_LINE);
        browser.driver.findElement(By.id("draft-save")).click();
        browser.waitForText(By.id("check-status"), "Saved. The draft compiles");

        // The trading desk's scenario fails in the draft, saying what it expected and what came out ...
        String draft = (String) browser.js("return arguments[0].value", browser.driver.findElement(By.id("draft-select")));
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=scenarios]")).click();
        browser.js("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
                browser.driver.findElement(By.id("suite-draft")), draft);
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
        replaceInEditor(SCENARIO_EXPECTED, SCENARIO_UPDATED);
        browser.driver.findElement(By.id("draft-save")).click();
        browser.waitForText(By.id("check-status"), "Saved. The draft compiles");
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=scenarios]")).click();
        browser.waitForText(By.id("scenario-status"), scenarioCount + " scenarios passed (draft " + draft + ")");
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=drafts]")).click();

        // The impact on the golden history and on what this server logged.
        browser.driver.findElement(By.id("impact-run")).click();
        browser.waitForText(By.id("impact-out"), "On the decisions this server logged");
        String impact = browser.driver.findElement(By.id("impact-out")).getText();
        assertTrue(impact.contains("trade messages go to VP Trading → trade messages go to VP Trading"), impact);
        assertTrue(impact.contains("3 decisions replayed: 0 unchanged, 3 changed"), impact);
        browser.js("arguments[0].scrollIntoView()", browser.driver.findElement(By.id("impact")));
        browser.shot("impact");

        // Open a changed decision in "Try a message": live and draft side by side.
        browser.driver.findElement(By.cssSelector("#impact-out button.small")).click();
        browser.waitForText(By.cssSelector("#try-out .column"), "Draft");
        browser.shot("try");
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=drafts]")).click();

        // Without the token, activation is refused.
        typeToken("");
        browser.driver.findElement(By.id("activate-note")).sendKeys("Trades go to the CFO from today (finance reorg)");
        browser.driver.findElement(By.id("activate-go")).click();
        browser.waitForText(By.id("activate-result"), "Refused (401");

        // With it, the gate refuses until the golden-history changes are accepted, then activates.
        typeToken(TOKEN);
        browser.driver.findElement(By.id("activate-go")).click();
        browser.waitForText(By.id("activate-result"), "Refused (409 golden_history_changes)");
        browser.driver.findElement(By.id("activate-accept")).click();
        browser.driver.findElement(By.id("activate-go")).click();
        browser.waitForText(By.id("activate-result"), "Activated");
        browser.js("arguments[0].scrollIntoView(false)", browser.driver.findElement(By.id("activate-result")));
        browser.shot("activated");

        // A plain request is decided by the new rule.
        JsonNode d = route(TRADE);
        assertEquals("[\"cfo\"]", Json.write(d.get("primary_recipients")), Json.write(d));
        assertEquals("trade messages go to VP Trading", d.get("rule").asText());
        assertTrue(Files.readString(server.engine().rulesDir().resolve("broker/routing.drl")).contains(FIXED_LINE));
        List<String> audit = Files.readAllLines(dir.resolve("data/activations.jsonl"));
        JsonNode rec = Json.parse(audit.get(audit.size() - 1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals("analyst-ana", rec.get("who").asText());
        assertEquals("Trades go to the CFO from today (finance reorg)", rec.get("note").asText());
        assertEquals(d.get("rules_revision").asText(), rec.get("new_revision").asText());

        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=history]")).click();
        browser.waitForText(By.cssSelector("#tab-history .activation"), "finance reorg");
        browser.shot("history");
        browser.driver.findElement(By.cssSelector("#tabs button[data-tab=diagrams]")).click();
        browser.waitFor("an FSM diagram", dr -> dr.findElements(By.cssSelector("#tab-diagrams .diagram svg")).size() > 0 ? true : null);
        browser.shot("machines");
        assertNoAlert();
        assertNoPolicyViolations();
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

    private static int lineOf(Path file, String text) throws Exception {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError(file + " has no line " + text);
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
