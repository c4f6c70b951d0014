package io.signalman.replay;

import static io.signalman.TestBundles.BROKER_HISTORY;
import static io.signalman.TestBundles.TOOL_RULE;
import static io.signalman.TestBundles.copyOfBrokerHistory;
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


    @TempDir
    static Path tmp;
    private static Path changedRules;
    private static RuleBundle changed;
    /** Rules that decide a record two ways (see {@link NondeterministicRules}): compiled by each command that reads them. */
    private static Path twoWaysRules;

    @BeforeAll
    static void changeOneRule() {
        twoWaysRules = NondeterministicRules.copy(tmp.resolve("two-ways"));
        changedRules = TestBundles.copyOfRulesWithToolSmith(tmp.resolve("changed"));
        changed = TestBundles.compile(changedRules);
    }

    @Test
    void aChangedRuleListsExactlyTheDecisionsItChanges() throws Exception {
        Archive archive = Archive.read(List.of(BROKER_HISTORY));
        long decidedByToolRule = archive.files().get(0).entries().stream().filter(e -> TOOL_RULE.equals(e.record().rule())).count();

        ReplayReport report = new Replayer(changed, null, null).replay(archive);

        assertFalse(report.passed());
        assertTrue(decidedByToolRule > 0);
        assertEquals(decidedByToolRule, report.counts().changed());
        assertEquals(1, report.groups().size());
        assertEquals(TOOL_RULE, report.groups().get(0).from());
        assertEquals(TOOL_RULE, report.groups().get(0).to());
        report.changes().forEach(c -> assertEquals(List.of("primary_recipients"), List.copyOf(c.fields().keySet())));
        assertEquals(report.counts().records() - decidedByToolRule, report.counts().unchanged());
    }

    @Test
    void theCommandExitsNonZeroOnChangesAndZeroWhenNothingChanged() {
        assertEquals(1, CliRunner.run("replay", "--rules", changedRules.toString(), BROKER_HISTORY.toString()).code());
        CliRunner.Result same = CliRunner.run("replay", "--rules", TestBundles.RULES.toString(), TestBundles.FIXTURES.toString());
        assertEquals(0, same.code(), same.out() + same.err());
        assertTrue(same.out().contains("PASS"));
    }

    @Test
    void aBaselineIsComparedInsteadOfTheRecordedDecisions() throws Exception {
        ReplayReport report = new Replayer(changed, TestBundles.shipped(), null).replay(Archive.read(List.of(BROKER_HISTORY)));
        assertTrue(report.toText().contains("compared with rules " + TestBundles.shipped().revision()));
        assertEquals(report.groups().get(0).count(), report.counts().changed());
        assertEquals(TOOL_RULE, report.groups().get(0).from());
    }

    @Test
    void theReportFileIsJsonWithTheChanges() throws Exception {
        Path report = tmp.resolve("report.json");
        CliRunner.run("replay", "--rules", changedRules.toString(), "--report", report.toString(), BROKER_HISTORY.toString());
        var json = Json.parse(Files.readAllBytes(report));
        assertFalse(json.get("passed").asBoolean());
        assertEquals(TOOL_RULE, json.get("changes").get(0).get("from_rule").asText());
        assertTrue(json.get("changed").asInt() > 0);
    }

    @Test
    void acceptRecordsTheIntendedChangeSoTheNextReplayPasses() throws Exception {
        Path archive = copyOfBrokerHistory(tmp.resolve("accept/history.jsonl"));

        CliRunner.Result accepted = CliRunner.run("replay", "--rules", changedRules.toString(), "--accept", archive.toString());
        CliRunner.Result again = CliRunner.run("replay", "--rules", changedRules.toString(), archive.toString());

        assertEquals(0, accepted.code(), accepted.err());
        assertTrue(accepted.out().contains("accepted"));
        assertEquals(0, again.code(), again.out());
        assertEquals(Files.readAllLines(BROKER_HISTORY).size(), Files.readAllLines(archive).size());
    }

    @Test
    void aTornLastLineIsSkippedAndReportedButNotFatal() throws Exception {
        Path archive = copyOfBrokerHistory(tmp.resolve("torn/history.jsonl"));
        Files.writeString(archive, "{\"decision_id\":\"01TORN\",\"pack\":\"bro", StandardOpenOption.APPEND);

        ReplayReport report = new Replayer(TestBundles.shipped(), null, null).replay(Archive.read(List.of(archive)));

        assertTrue(report.passed(), report::toText);
        assertTrue(report.problems().stream().anyMatch(p -> p.torn() && p.message().contains("torn last line")));
        assertEquals(Files.readAllLines(BROKER_HISTORY).size(), report.counts().records());
    }

    @Test
    void anUnreadableRecordInTheMiddleFailsTheReplay() throws Exception {
        Path archive = tmp.resolve("garbled/history.jsonl");
        Files.createDirectories(archive.getParent());
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(BROKER_HISTORY));
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

        ReplayReport report = new Replayer(TestBundles.compile(rules), null, null).replay(Archive.read(List.of(BROKER_HISTORY)));

        assertFalse(report.violations().isEmpty());
        ReplayReport.Violation v = report.violations().get(0);
        assertEquals("critical messages always reach openclaw and knox", v.invariant());
        assertEquals("critical", v.input().path("envelope").path("priority").asText());
        assertEquals("critical", v.minimal().path("envelope").path("priority").asText());
        assertFalse(v.minimal().has("id") || v.minimal().has("payload"), "shrunk to what matters: " + v.minimal());
        assertEquals("", v.minimal().path("subtype").asText("not shrunk"));
    }

    @Test
    void determinismAllCatchesARecordDecidedTwoWaysThatTheDefaultSampleSkips() throws Exception {
        // Given rules whose first decision differs from the next ones, one replaying thread (so the
        // record decided two ways is line 1), and a sample that does not pick line 1
        assertFalse(Determinism.SAMPLE.checks(Firsts.position(0, 1)));
        Path report = tmp.resolve("determinism-all.json");
        String violation = NondeterministicRules.INVARIANT + " (broker) at " + BROKER_HISTORY + ":1: decided ";

        // When the history is replayed with --determinism all, then with the default
        CliRunner.Result all = CliRunner.run("replay", "--quiet", "--threads", "1", "--determinism", "all", "--rules",
                twoWaysRules.toString(), "--report", report.toString(), BROKER_HISTORY.toString());
        CliRunner.Result sample = CliRunner.run("replay", "--quiet", "--threads", "1", "--rules", twoWaysRules.toString(),
                BROKER_HISTORY.toString());

        // Then all breaks determinism at line 1 and says it checked every record; the sample does not
        assertEquals(1, all.code(), all.out() + all.err());
        assertTrue(all.out().contains(violation), all.out());
        assertTrue(all.out().contains("determinism checked on 364 of 364 records (every record)\n"), all.out());
        var json = Json.parse(Files.readAllBytes(report)).get("determinism");
        assertEquals("all", json.get("mode").asText());
        assertEquals(364, json.get("checked").asLong());
        assertEquals(364, json.get("of").asLong());
        assertFalse(json.has("one_in"), json.toString());
        assertFalse(sample.out().contains(violation), sample.out());
    }

    @Test
    void byDefaultTheReportSaysOnHowManyRecordsOfTheSampleDeterminismWasChecked() throws Exception {
        // Given the records of the history whose position the sample picks
        long picked = java.util.stream.IntStream.rangeClosed(1, 364)
                .filter(line -> Determinism.SAMPLE.checks(Firsts.position(0, line))).count();
        Path report = tmp.resolve("determinism-sample.json");

        // When it is replayed without --determinism
        CliRunner.Result r = CliRunner.run("replay", "--quiet", "--rules", TestBundles.RULES.toString(), "--report",
                report.toString(), BROKER_HISTORY.toString());

        // Then the text and the JSON count those records, of every record decided
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(picked > 0 && picked < 364 / 16, "picked " + picked);
        assertTrue(r.out().contains("determinism checked on " + picked + " of 364 records (1 in 64, by archive position;"
                + " --determinism all checks every one)\n"), r.out());
        var json = Json.parse(Files.readAllBytes(report)).get("determinism");
        assertEquals("sample", json.get("mode").asText());
        assertEquals(64, json.get("one_in").asInt());
        assertEquals(picked, json.get("checked").asLong());
        assertEquals(364, json.get("of").asLong());
    }

    @Test
    void acceptChecksDeterminismOnEveryRecordAndWillNotBeToldToSample() throws Exception {
        // Given a copy of the history, and rules that decide a record the sample skips two ways
        Path archive = copyOfBrokerHistory(tmp.resolve("accept-two-ways/history.jsonl"));

        // When the changes are accepted, by default and then asking for the sample
        CliRunner.Result accepted = CliRunner.run("replay", "--quiet", "--threads", "1", "--rules", twoWaysRules.toString(),
                "--accept", archive.toString());
        CliRunner.Result sampled = CliRunner.run("replay", "--rules", twoWaysRules.toString(), "--accept", "--determinism",
                "sample", archive.toString());

        // Then the broken determinism refuses the accept and nothing is written; sampling is a usage error
        assertEquals(1, accepted.code(), accepted.out() + accepted.err());
        assertTrue(accepted.out().contains(NondeterministicRules.INVARIANT + " (broker) at " + archive + ":1"), accepted.out());
        assertTrue(accepted.err().contains("not accepting: the candidate rules break invariants"), accepted.err());
        assertEquals(Files.readString(BROKER_HISTORY), Files.readString(archive));
        assertEquals(2, sampled.code(), sampled.err());
        assertTrue(sampled.err().contains("--accept checks determinism on every record: leave out --determinism sample"),
                sampled.err());
    }

    @Test
    void determinismTakesAllOrSampleAndTheHelpSaysSo() {
        CliRunner.Result wrong = CliRunner.run("replay", "--determinism", "some", BROKER_HISTORY.toString());
        CliRunner.Result help = CliRunner.run("replay", "--help");

        assertEquals(2, wrong.code());
        assertTrue(wrong.err().contains("--determinism must be all or sample, not \"some\""), wrong.err());
        assertTrue(help.out().contains("[--determinism all|sample (sample: determinism checked on 1 record in 64; --accept: all)]"),
                help.out());
    }
}
