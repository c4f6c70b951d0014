package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code signalman test [rules-dir]}: every pack's scenarios, exit 1 on a failure with expected vs actual and why. */
class TestCommandTest {

    @Test
    void everyPacksScenariosRunAndPass() {
        // When the seed bundle's scenarios are run
        CliRunner.Result r = CliRunner.run("test", TestBundles.RULES.toString());

        // Then each pack's are counted and the run passes
        assertEquals(0, r.code(), r::toString);
        for (String pack : new String[] {"broker", "signals", "fsm", "dispatch", "handoff"}) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(pack) && l.contains("scenarios:") && l.endsWith("0 failed")), r.out());
        }
        assertTrue(r.out().contains("ok: "), r.out());
    }

    @Test
    void aFailingScenarioExitsOneShowingExpectedActualAndTheExplanation(@TempDir Path dir) throws Exception {
        // Given rules where content goes to the CFO, and a scenario file with a typo
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"vp-content\")", "decide.primary(\"cfo\")");
        Files.writeString(rules.resolve("broker/scenarios/typo.yaml"),
                "- name: a typo\n  input: {type: event}\n  expcet: {rule: null}\n");

        // When the scenarios run
        CliRunner.Result r = CliRunner.run("test", rules.toString());

        // Then it fails, naming the scenario at its file and line, expected vs actual, and why
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.out().contains(rules.resolve("broker/scenarios/typo.yaml") + ":1: error: unknown key \"expcet\""), r.out());
        assertTrue(r.out().contains(": FAIL \"published content goes to VP Content\""), r.out());
        assertTrue(r.out().contains("primary_recipients: expected [\"vp-content\"], got [\"cfo\"]"), r.out());
        assertTrue(r.out().contains("decided by \"content messages go to VP Content\""), r.out());
        assertTrue(r.out().contains("rules considered, in firing order:"), r.out());
        assertTrue(r.err().contains("FAIL: 1 of"), r.err());
    }

    @Test
    void jsonIsTheReportTheWorkbenchShows(@TempDir Path dir) throws Exception {
        // Given rules where content goes to the CFO
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"vp-content\")", "decide.primary(\"cfo\")");

        // When the scenarios run with --json
        CliRunner.Result r = CliRunner.run("test", rules.toString(), "--json");

        // Then the report is JSON: the failing scenario at its file and line, expected vs actual
        assertEquals(1, r.code(), r::toString);
        JsonNode report = Json.parse(r.out().getBytes(StandardCharsets.UTF_8));
        assertFalse(report.get("passed").asBoolean());
        JsonNode failed = null;
        for (JsonNode x : report.get("results")) {
            if (x.get("name").asText().equals("published content goes to VP Content")) {
                failed = x;
            }
        }
        assertEquals("broker/scenarios/routing.yaml", failed.get("file").asText(), r.out());
        assertTrue(failed.get("line").asInt() > 0);
        assertFalse(failed.get("passed").asBoolean());
        JsonNode m = failed.get("mismatches").get(0);
        assertEquals("primary_recipients", m.get("field").asText());
        assertEquals("[\"vp-content\"]", Json.write(m.get("expected")));
        assertEquals("[\"cfo\"]", Json.write(m.get("actual")));
        assertEquals(report.get("results").size(), report.get("scenarios").asInt());
    }

    @Test
    void rulesThatDoNotCompileRunNoScenario(@TempDir Path dir) {
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"vp-content\")", "decide.primry(\"vp-content\")");

        CliRunner.Result r = CliRunner.run("test", rules.toString());

        assertEquals(1, r.code(), r::toString);
        assertTrue(r.err().contains("routing.drl:") && r.err().contains("no scenario ran"), r.err());
    }
}
