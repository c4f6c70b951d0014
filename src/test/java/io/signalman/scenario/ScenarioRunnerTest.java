package io.signalman.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.RuleBundle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Running scenarios against the seed bundle: what passes, and how a failure reads. */
class ScenarioRunnerTest {

    private static final RuleBundle SEED = TestBundles.shipped();

    private static ScenarioResult run(String pack, String yaml) {
        List<BundleError> errors = new ArrayList<>();
        List<Scenario> read = ScenarioFiles.parse(pack + "/scenarios/t.yaml", pack, yaml.getBytes(StandardCharsets.UTF_8), errors);
        assertEquals(List.of(), errors);
        return ScenarioRunner.run(SEED, read.get(0));
    }

    @Test
    void aScenarioNamingOnlySomeFieldsPassesWhenThoseComeOut() {
        ScenarioResult r = run("broker", """
                - name: a trade goes to VP Trading
                  input: {envelope: {from_agent: foresight, priority: normal}, type: event, subtype: trade.executed}
                  expect:
                    primary_recipients: [vp-trading]
                    rule: trade messages go to VP Trading
                    rules_fired: [trade messages go to VP Trading, executed and completed trades are kept in memory]
                """);
        assertTrue(r.passed(), r::failure);
        assertEquals(List.of("trade messages go to VP Trading", "executed and completed trades are kept in memory"), r.fired());
    }

    @Test
    void aFailureShowsEachFieldExpectedAndActualAndTheExplanation() {
        ScenarioResult r = run("broker", """
                - name: trades go to the CFO
                  input: {envelope: {from_agent: foresight, priority: normal}, type: event, subtype: trade.executed}
                  expect: {primary_recipients: [cfo], store_in_memory: true, rule: content messages go to VP Content}
                """);

        assertFalse(r.passed());
        assertEquals(2, r.mismatches().size(), r::failure);
        assertEquals("primary_recipients: expected [\"cfo\"], got [\"vp-trading\"]", r.mismatches().get(0).toString());
        assertEquals("rule: expected \"content messages go to VP Content\", got \"trade messages go to VP Trading\"",
                r.mismatches().get(1).toString());
        assertTrue(r.explanation().get(0).startsWith("decided by \"trade messages go to VP Trading\" (broker/routing.drl:"),
                r.explanation()::toString);
        assertTrue(r.explanation().stream().anyMatch(l -> l.startsWith("not-matched") && l.contains("content messages go to VP Content")),
                r.explanation()::toString);
    }

    @Test
    void aFieldTheDecisionDoesNotHaveIsNamedWithTheFieldsItHas() {
        ScenarioResult r = run("broker", """
                - name: a typo in an expected field
                  input: {envelope: {from_agent: foresight, priority: normal}, type: event, subtype: trade.executed}
                  expect: {primary: [vp-trading]}
                """);
        assertFalse(r.passed());
        assertTrue(r.failure().contains("no field \"primary\"") && r.failure().contains("primary_recipients"), r::failure);
    }

    @Test
    void statefulPacksStartFromStateBefore() {
        ScenarioResult fsm = run("fsm", """
                - name: a review of quality 0.8 is done
                  input: {id: r1, action: review, payload: {quality: 0.8}}
                  state_before: {type: fsm, machine: review-flow, current_state: running}
                  expect: {from: running, to: done}
                """);
        assertTrue(fsm.passed(), fsm::failure);

        ScenarioResult handoff = run("handoff", """
                - name: triage's billing signal goes to billing
                  input: {agent: triage, response: "[BILLING]", tool_calls: 0}
                  state_before: {crew: support, current_agent: triage, handoff_count: 0}
                  expect: {next: {type: agent, agent: billing}, handoff_count: 1}
                """);
        assertTrue(handoff.passed(), handoff::failure);
    }

    @Test
    void anInputThePackRefusesFailsNamingTheField() {
        ScenarioResult r = run("broker", """
                - name: a bad priority
                  input: {envelope: {from_agent: foresight, priority: urgent}, type: event, subtype: trade.executed}
                  expect: {rule: null}
                """);
        assertFalse(r.passed());
        assertTrue(r.error().contains("input is not valid for the broker pack (envelope.priority)"), r::failure);

        ScenarioResult noState = run("fsm", """
                - name: no state
                  input: {id: r1, action: start}
                  expect: {to: running}
                """);
        assertFalse(noState.passed());
        assertTrue(noState.error().contains("state_before"), noState::failure);
    }

    @Test
    void numbersMatchByValueAndNullMeansNoRuleDecided() throws Exception {
        ScenarioResult r = run("fsm", """
                - name: finishing an idle review is refused
                  input: {id: r1, action: finish}
                  state_before: {type: fsm, machine: review-flow, current_state: idle}
                  expect: {error: invalid_transition, rule: null, rules_fired: []}
                """);
        assertTrue(r.passed(), r::failure);
        assertTrue(Expectation.matches(io.signalman.json.Json.parse("1"), io.signalman.json.Json.parse("1.0")));
        assertFalse(Expectation.matches(io.signalman.json.Json.parse("[1]"), io.signalman.json.Json.parse("[1, 2]")));
    }

    @Test
    void theReportNamesEachFailureAtItsFileAndLineAndCountsPerPack() {
        ScenarioResult failed = run("broker", """
                - name: trades go to the CFO
                  input: {envelope: {from_agent: foresight, priority: normal}, type: event, subtype: trade.executed}
                  expect: {primary_recipients: [cfo]}
                """);
        ScenarioReport report = new ScenarioReport(List.of(failed), List.of());

        String text = report.toText(Path.of("rules"));
        assertTrue(text.contains("rules/broker/scenarios/t.yaml:1: FAIL \"trades go to the CFO\""), text);
        assertTrue(text.contains("broker      1 scenarios: 0 passed, 1 failed"), text);
        assertEquals(List.of(new BundleError("broker/scenarios/t.yaml", 1, 0,
                "scenario \"trades go to the CFO\" fails: primary_recipients: expected [\"cfo\"], got [\"vp-trading\"]")),
                report.asErrors());
    }
}
