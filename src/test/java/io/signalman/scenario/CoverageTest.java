package io.signalman.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Coverage counts the golden history and the scenarios together. */
class CoverageTest {

    @Test
    void aRuleIsCoveredWhenTheHistoryOrAScenarioFiresIt() {
        // Given a history that never fired two broker rules and one fsm rule
        Map<String, List<String>> neverInHistory = Map.of("broker", List.of("a", "b"), "fsm", List.of("c"));
        // and scenarios that fired one of the broker rules
        Scenario s = new Scenario("fires a", "broker", "broker/scenarios/x.yaml", 1,
                io.signalman.json.Json.object(), null, io.signalman.json.Json.object());
        ScenarioReport scenarios = new ScenarioReport(List.of(new ScenarioResult(s, null, List.of(), null, List.of(), List.of("a"))),
                List.of());

        // When coverage is computed, then only the rules neither fired are left, with the analysts' way to cover them
        Map<String, List<String>> left = Coverage.uncovered(neverInHistory, scenarios);
        assertEquals(Map.of("broker", List.of("b"), "fsm", List.of("c")), left);
        String advice = Coverage.advice(left);
        assertTrue(advice.contains("broker: \"b\"") && advice.contains("rules/<pack>/scenarios/*.yaml")
                && advice.contains("replay --accept"), advice);
    }
}
