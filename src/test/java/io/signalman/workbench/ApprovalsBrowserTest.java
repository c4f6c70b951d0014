package io.signalman.workbench;

import static io.signalman.TextAssertions.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.TestServer;
import io.signalman.people.HashCost;
import io.signalman.people.PeopleConfig;
import io.signalman.people.Principal;
import io.signalman.people.Role;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * Four eyes in a real browser, with {@code --approvals 1}: ana (an author) logs in with her token,
 * drafts a change to one rule and saves it; her activation is refused for want of an approval
 * (she is no operator either), so she asks for review; bo (an approver) logs in, finds it waiting
 * for him (counted in the tab bar), sees the change rule by rule and approves it with a note; cy
 * (an operator) logs in, finds it waiting to be activated, and activates it; the rule's timeline on the Rules tab names all three. The
 * token lives in the page's session storage only: no cookie is ever set.
 */
class ApprovalsBrowserTest {

    private static final String RULE = "critical messages go to openclaw and knox";
    private static final String ADDED = "    // checked with the desk";

    @RegisterExtension
    @Order(1)
    static final TestServer server = TestServer.starting(dir -> Server.start(TestBundles.editableSeedServer(dir)
            .withAdminToken("approvals-browser-admin-token")
            .withPeople(PeopleConfig.defaults().withApprovals(1).withHashCost(new HashCost(64, 1, 1)))));
    @RegisterExtension
    @Order(2)
    static final Browser browser = Browser.of(server);
    private static String ana;
    private static String bo;
    private static String cy;

    @BeforeAll
    static void start() throws Exception {
        Principal admin = Principal.bootstrap("admin");
        ana = server.server().people().addUser("ana", EnumSet.of(Role.AUTHOR), admin).token();
        bo = server.server().people().addUser("bo", EnumSet.of(Role.APPROVER), admin).token();
        cy = server.server().people().addUser("cy", EnumSet.of(Role.OPERATOR), admin).token();
    }

    @Test
    void anAuthorDraftsAnApproverApprovesAnOperatorActivates() {
        browser.driver.get("http://127.0.0.1:" + server.port() + "/workbench/#drafts");

        // ana logs in and drafts a change to one rule
        logIn(ana, "signed in as ana (viewer, author)");
        browser.click(By.id("draft-new"));
        browser.waitForText(By.id("draft-file"), "broker/routing.drl");
        String head = "rule \"" + RULE + "\"";
        Object ok = browser.js("const cm = arguments[0].CodeMirror; const v = cm.getValue();"
                + " if (!v.includes(arguments[1])) return false; cm.setValue(v.replace(arguments[1], arguments[1] + '\\n' + arguments[2]));"
                + " return true;", browser.driver.findElement(By.id("draft-editor")), head, ADDED);
        assertEquals(Boolean.TRUE, ok);
        browser.click(By.id("draft-save"));
        // The new draft already showed "0 of 1": wait for the save's own answer, whose redraw of the
        // draft would otherwise replace the activation form under the click below.
        browser.waitForText(By.id("check-status"), "Saved.");
        browser.waitForText(By.id("approvals-summary"), "0 of 1 approval(s)");
        String draft = (String) browser.js("return document.getElementById('draft-select').value");

        // ... she cannot activate it: she is no operator, and the button says so rather than fail
        browser.waitFor("the activate button to say what it needs", d -> {
            WebElement go = d.findElement(By.id("activate-go"));
            return !go.isEnabled() && "needs the operator role".equals(go.getDomAttribute("title")) ? true : null;
        });
        browser.shot("approvals-author");

        // ... so she asks for review, with a note
        submitWithNote(By.id("review-note"), "one comment in the critical rule", By.id("review-request"));
        browser.waitForText(By.id("draft-status"), "In review");

        // bo logs in: the draft waits for him, counted in the tab bar; he opens it from there
        logIn(bo, "signed in as bo (viewer, approver)");
        browser.waitForText(By.cssSelector("#tabs button[data-tab=inbox]"), "Waiting for you (1)");
        browser.click(By.cssSelector("#tabs button[data-tab=inbox]"));
        browser.waitForText(By.id("inbox-review"), "ana asks for review");
        browser.waitForText(By.id("inbox-review"), "one comment in the critical rule");
        browser.click(By.cssSelector("#inbox-review button.open-draft[data-draft='" + draft + "']"));
        browser.waitFor("the draft to open", d -> draft.equals(browser.js("return document.getElementById('draft-select').value"))
                && !d.findElements(By.id("approvals-summary")).isEmpty() ? true : null);
        // ... sees what it changes, rule by rule, and approves it with a note
        browser.waitForText(By.id("diff-words"), "the rule \"" + RULE + "\" of broker is changed");
        browser.waitForText(By.cssSelector("#draft-diff pre[data-side=draft]"), ADDED.strip());
        browser.shot("review-diff");
        // ... runs the impact (no author, and no need to be: it changes nothing) and reads it
        browser.click(By.id("impact-run"));
        browser.waitForText(By.id("impact-out"), "On the decisions this server logged");
        assertFalse(browser.driver.findElement(By.tagName("body")).getText().contains("[object"), "no object shown as text");
        submitWithNote(By.id("verdict-note"), "the comment is right", By.id("approve-go"));
        browser.waitForText(By.id("approvals-summary"), "1 of 1 approval(s)");
        browser.waitForText(By.id("approvals-list"), "approved by bo");
        // ... and the approval records that he saw it
        browser.waitForText(By.id("approvals-list"), "having seen the impact of this content");
        browser.shot("approvals-approved");

        // cy logs in: the approved draft waits for him; he opens it from his inbox and activates it
        logIn(cy, "signed in as cy (viewer, operator)");
        browser.click(By.cssSelector("#tabs button[data-tab=inbox]"));
        browser.waitForText(By.id("inbox-activate"), "draft " + draft + ": 1 of 1 approval(s)");
        browser.click(By.cssSelector("#inbox-activate button.open-draft[data-draft='" + draft + "']"));
        browser.waitFor("the draft to open", d -> draft.equals(browser.js("return document.getElementById('draft-select').value"))
                && !d.findElements(By.id("approvals-summary")).isEmpty() ? true : null);
        submitWithNote(By.id("activate-note"), "a comment in the critical rule", By.id("activate-go"));
        browser.waitForText(By.id("draft-status"), "Activated as activation #1");
        browser.waitForText(By.id("notice"), "Activated as #1");

        // The rule's timeline names all three
        browser.click(By.cssSelector("#tabs button[data-tab=rules]"));
        WebElement row = browser.waitFor("the rule's row", d -> d.findElements(By.cssSelector("#tab-rules tr")).stream()
                .filter(tr -> tr.getText().contains(RULE)).findFirst().orElse(null));
        row.findElement(By.cssSelector("a.timeline-link")).click();
        WebElement timeline = browser.waitForText(By.id("rule-timeline"), "activated by cy");
        assertContains(timeline.getText(), "written by ana", "approved by bo (\"the comment is right\")", "+" + ADDED);
        browser.shot("rule-timeline");

        // cy, no author, opens the rule's file from the Rules tab: the live file, read-only, at the rule's line
        browser.click(By.cssSelector("#tabs button[data-tab=rules]"));
        WebElement fileLink = browser.waitFor("the rule's file link", d -> d.findElements(By.cssSelector("#tab-rules tr")).stream()
                .filter(tr -> tr.getText().contains(RULE)).findFirst().map(tr -> tr.findElement(By.cssSelector("a.file"))).orElse(null));
        fileLink.click();
        browser.waitForText(By.id("live-file"), "the live rules, read-only");
        browser.waitForText(By.cssSelector("#live-file .at-line"), "rule \"" + RULE + "\"");

        // ... and undoes the activation alone, as an emergency, from the Activations tab
        browser.click(By.cssSelector("#tabs button[data-tab=history]"));
        submitWithNote(By.cssSelector(".activation[data-seq='1'] .rollback-note"), "the desk asked to undo it",
                By.cssSelector(".activation[data-seq='1'] button.emergency-revert"));
        browser.waitForText(By.cssSelector("#tab-history"), "#2 revert by cy");

        // No page shows an object where a sentence fits
        for (WebElement tab : browser.driver.findElements(By.cssSelector("#tabs button[data-tab]"))) {
            if (!tab.isDisplayed()) {
                continue;
            }
            String name = tab.getDomAttribute("data-tab");
            browser.click(By.cssSelector("#tabs button[data-tab='" + name + "']"));
            browser.waitFor("the " + name + " tab to draw", d -> !d.findElement(By.id("tab-" + name)).getText().isBlank() ? true : null);
            String text = browser.driver.findElement(By.tagName("body")).getText();
            assertFalse(text.contains("[object") || text.contains("undefined") || text.matches("(?s).*\\{\"[a-z_]+\":.*"),
                    name + " tab shows code where a sentence fits:\n" + text);
        }
        // ... and the platform's words are explained on hover where they show
        browser.click(By.cssSelector("#tabs button[data-tab=rules]"));
        WebElement salience = browser.waitFor("salience explained", d -> d.findElements(By.cssSelector("#tab-rules th abbr.term")).stream()
                .filter(a -> a.getText().equals("Salience")).findFirst().orElse(null));
        assertTrue(salience.getDomAttribute("title").contains("tried first"), salience.getDomAttribute("title"));
        assertTrue(browser.driver.findElement(By.id("revision")).getDomAttribute("title").contains("fingerprint"));
        assertFalse(browser.driver.manage().getCookies().iterator().hasNext(), "no token, and nothing else, in a cookie");
    }

    private static void logIn(String token, String shown) {
        WebElement t = browser.driver.findElement(By.id("token"));
        t.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        t.sendKeys(token, Keys.TAB);
        browser.waitForText(By.id("who"), shown);
    }

    /** Logs in with {@code token} as the page shows it, then opens draft {@code id}. */
    private static void logInAndOpen(String token, String shown, String id) {
        logIn(token, shown);
        openDraft(id);
    }

    private static void openDraft(String id) {
        browser.click(By.cssSelector("#tabs button[data-tab=drafts]"));
        browser.waitFor("the draft to be offered", d -> d.findElements(By.cssSelector("#draft-select option")).stream()
                .anyMatch(o -> id.equals(o.getDomAttribute("value"))) ? true : null);
        new org.openqa.selenium.support.ui.Select(browser.driver.findElement(By.id("draft-select"))).selectByValue(id);
        browser.waitFor("the draft to open", d -> id.equals(browser.js("return document.getElementById('draft-select').value"))
                && !d.findElements(By.id("approvals-summary")).isEmpty() ? true : null);
    }

    /** Types {@code text} into the note field {@code by} (once it shows), then clicks {@code button}. */
    private static void submitWithNote(By by, String text, By button) {
        browser.waitFor(by + " to take a note", d -> {
            WebElement note = d.findElements(by).stream().filter(WebElement::isDisplayed).findFirst().orElse(null);
            if (note == null) {
                return null;
            }
            note.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
            note.sendKeys(text);
            return text.equals(note.getDomProperty("value")) ? true : null;
        });
        browser.click(button);
    }
}
