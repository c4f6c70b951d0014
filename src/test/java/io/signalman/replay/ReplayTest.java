package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code signalman replay}: what changes, what breaks, and what the exit code says. */
class ReplayTest {

    private static final Path HISTORY = TestBundles.FIXTURES.resolve("broker/history.jsonl");
    private static final String TOOL_RULE = "tool messages go to the Sr. Director of Tooling at low priority";

    @TempDir
    static Path tmp;
    private static Path changedRules;
    private static RuleBundle changed;

    @BeforeAll
    static void changeOneRule() {
        changedRules = TestBundles.copyOfRulesWithToolSmith(tmp.resolve("changed"));
        changed = TestBundles.compile(changedRules);
    }

    @Test
    void aChangedRuleListsExactlyTheDecisionsItChanges() throws Exception {
        Archive archive = Archive.read(List.of(HISTORY));
        long decidedByToolRule = archive.files().get(0).entries().stream().filter(e -> TOOL_RULE.equals(e.record().rule())).count();

        ReplayReport report = new Replayer(changed, null, null).replay(archive);

        assertFalse(report.passed());
        assertTrue(decidedByToolRule > 0);
        assertEquals(decidedByToolRule, report.changed());
        assertEquals(1, report.groups().size());
        assertEquals(TOOL_RULE, report.groups().get(0).from());
        assertEquals(TOOL_RULE, report.groups().get(0).to());
        report.changes().forEach(c -> assertEquals(List.of("primary_recipients"), List.copyOf(c.fields().keySet())));
        assertEquals(report.records() - decidedByToolRule, report.unchanged());
    }

    @Test
    void theCommandExitsNonZeroOnChangesAndZeroWhenNothingChanged() {
        assertEquals(1, CliRunner.run("replay", "--rules", changedRules.toString(), HISTORY.toString()).code());
        CliRunner.Result same = CliRunner.run("replay", "--rules", TestBundles.RULES.toString(), TestBundles.FIXTURES.toString());
        assertEquals(0, same.code(), same.out() + same.err());
        assertTrue(same.out().contains("PASS"));
    }

    @Test
    void aBaselineIsComparedInsteadOfTheRecordedDecisions() throws Exception {
        ReplayReport report = new Replayer(changed, TestBundles.shipped(), null).replay(Archive.read(List.of(HISTORY)));
        assertTrue(report.toText().contains("compared with rules " + TestBundles.shipped().revision()));
        assertEquals(report.groups().get(0).count(), report.changed());
        assertEquals(TOOL_RULE, report.groups().get(0).from());
    }

    @Test
    void theReportFileIsJsonWithTheChanges() throws Exception {
        Path report = tmp.resolve("report.json");
        CliRunner.run("replay", "--rules", changedRules.toString(), "--report", report.toString(), HISTORY.toString());
        var json = Json.parse(Files.readAllBytes(report));
        assertFalse(json.get("passed").asBoolean());
        assertEquals(TOOL_RULE, json.get("changes").get(0).get("from_rule").asText());
        assertTrue(json.get("changed").asInt() > 0);
    }

    @Test
    void acceptRecordsTheIntendedChangeSoTheNextReplayPasses() throws Exception {
        Path archive = tmp.resolve("accept/history.jsonl");
        Files.createDirectories(archive.getParent());
        Files.copy(HISTORY, archive);

        CliRunner.Result accepted = CliRunner.run("replay", "--rules", changedRules.toString(), "--accept", archive.toString());
        CliRunner.Result again = CliRunner.run("replay", "--rules", changedRules.toString(), archive.toString());

        assertEquals(0, accepted.code(), accepted.err());
        assertTrue(accepted.out().contains("accepted"));
        assertEquals(0, again.code(), again.out());
        assertEquals(Files.readAllLines(HISTORY).size(), Files.readAllLines(archive).size());
    }

    @Test
    void aTornLastLineIsSkippedAndReportedButNotFatal() throws Exception {
        Path archive = tmp.resolve("torn/history.jsonl");
        Files.createDirectories(archive.getParent());
        Files.copy(HISTORY, archive);
        Files.writeString(archive, "{\"decision_id\":\"01TORN\",\"pack\":\"bro", StandardOpenOption.APPEND);

        ReplayReport report = new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(archive)));

        assertTrue(report.passed(), report::toText);
        assertTrue(report.problems().stream().anyMatch(p -> p.torn() && p.message().contains("torn last line")));
        assertEquals(Files.readAllLines(HISTORY).size(), report.records());
    }

    @Test
    void anUnreadableRecordInTheMiddleFailsTheReplay() throws Exception {
        Path archive = tmp.resolve("garbled/history.jsonl");
        Files.createDirectories(archive.getParent());
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(HISTORY));
        lines.add(5, "not json at all");
        Files.writeString(archive, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);

        ReplayReport report = new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(archive)));

        assertFalse(report.passed());
        assertTrue(report.problems().get(0).message().contains(":6: unreadable record") && report.problems().get(0).fatal(),
                report.problems().toString());
    }

    @Test
    void aBrokenInvariantIsReportedWithTheInputThatBreaksIt() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp.resolve("broken-invariant"));
        TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"openclaw\", \"knox\")", "decide.primary(\"openclaw\")");

        ReplayReport report = new Replayer(TestBundles.compile(rules), null, null).replay(Archive.read(List.of(HISTORY)));

        assertFalse(report.violations().isEmpty());
        ReplayReport.Violation v = report.violations().get(0);
        assertEquals("critical messages always reach openclaw and knox", v.invariant());
        assertEquals("critical", v.input().path("envelope").path("priority").asText());
        assertEquals("critical", v.minimal().path("envelope").path("priority").asText());
        assertFalse(v.minimal().has("id") || v.minimal().has("payload"), "shrunk to what matters: " + v.minimal());
        assertEquals("", v.minimal().path("subtype").asText("not shrunk"));
    }
}
