package io.signalman.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.json.InputException;
import io.signalman.json.Json;
import org.junit.jupiter.api.Test;

/** When a trial stops by itself, and which limits a request may set. */
class StopLimitsTest {

    private static Figures.Totals totals(long comparisons, long diverged, long violations, long candidate, long failed, double p99) {
        return new Figures.Totals(comparisons, diverged, violations, violations == 0 ? null : "\"exhaustive\" in pack broker: x",
                candidate, failed, p99);
    }

    @Test
    void theDivergenceRateIsJudgedOnlyOnceMinDecisionsComparisonsWereMade() throws Exception {
        StopLimits s = StopLimits.parse(Json.parse("{\"max_divergence_rate\": 0.1, \"min_decisions\": 100}"), "stop");

        assertNull(s.tripped(totals(99, 99, 0, 99, 0, 1)), "99 comparisons are too few to judge");
        assertNull(s.tripped(totals(100, 10, 0, 100, 0, 1)), "10% is not more than 10%");
        String why = s.tripped(totals(100, 11, 0, 100, 0, 1));
        assertTrue(why.contains("max_divergence_rate 0.1") && why.contains("11 of 100"), why);
    }

    @Test
    void anInvariantViolationStopsAtOnceWhenAsked() throws Exception {
        StopLimits s = StopLimits.parse(Json.parse("{\"on_invariant_violation\": true}"), "stop");
        assertTrue(s.tripped(totals(1, 0, 1, 1, 0, 1)).contains("exhaustive"));
        assertNull(StopLimits.parse(Json.parse("{\"max_divergence_rate\": 0.5}"), "stop").tripped(totals(1000, 0, 5, 1000, 0, 1)));
    }

    @Test
    void theCandidatesErrorRateAndP99StopIt() throws Exception {
        StopLimits s = StopLimits.parse(Json.parse("{\"max_candidate_error_rate\": 0.01, \"max_candidate_p99_ms\": 50,"
                + " \"min_decisions\": 10}"), "stop");
        assertNull(s.tripped(totals(10, 0, 0, 10, 0, 49)));
        assertTrue(s.tripped(totals(10, 0, 0, 10, 1, 1)).contains("max_candidate_error_rate"));
        assertTrue(s.tripped(totals(10, 0, 0, 10, 0, 51)).contains("max_candidate_p99_ms"));
    }

    @Test
    void withoutLimitsNothingStopsIt() throws Exception {
        StopLimits none = StopLimits.parse(null, "stop");
        assertTrue(none.none());
        assertNull(none.tripped(totals(1_000_000, 1_000_000, 50, 1_000_000, 1_000_000, 10_000)));
    }

    @Test
    void limitsAreReadStrictlyAndKeptAsWritten() throws Exception {
        assertEquals("stop.max_divergence_rate", assertThrows(InputException.class,
                () -> StopLimits.parse(Json.parse("{\"max_divergence_rate\": 1.5}"), "stop")).field());
        assertEquals("stop.min_decisions", assertThrows(InputException.class,
                () -> StopLimits.parse(Json.parse("{\"min_decisions\": 0.5}"), "stop")).field());
        assertEquals("stop.max_candidate_p99_ms", assertThrows(InputException.class,
                () -> StopLimits.parse(Json.parse("{\"max_candidate_p99_ms\": 0}"), "stop")).field());
        assertEquals("stop.on_invariant_violation", assertThrows(InputException.class,
                () -> StopLimits.parse(Json.parse("{\"on_invariant_violation\": 1}"), "stop")).field());
        assertEquals("stop.halt", assertThrows(InputException.class, () -> StopLimits.parse(Json.parse("{\"halt\": true}"), "stop"))
                .field());
        StopLimits s = StopLimits.parse(Json.parse("{\"max_divergence_rate\": 0.2, \"min_decisions\": 7}"), "stop");
        assertEquals(s, StopLimits.fromJson(s.toJson()));
    }
}
