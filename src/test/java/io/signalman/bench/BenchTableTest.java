package io.signalman.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import org.junit.jupiter.api.Test;

/** The table shows what the benchmarks measured, each figure against its target. */
class BenchTableTest {

    @Test
    void theTrialRowsShowEachConditionAgainstTheNoTrialThroughputAndTheTargets() {
        // Given trials.json as TrialBench writes it
        ObjectNode trials = Json.object();
        row(trials, TrialBench.NONE, 10_000, 1.0, 0);
        row(trials, TrialBench.SHADOW, 8_000, 1.3, 12);
        row(trials, TrialBench.CANARY, 9_000, 1.2, 0);
        trials.put("shadow_vs_no_trial", 0.8).put("canary_vs_no_trial", 0.9).put("shadow_added_p99_ms", 0.3);

        String rows = BenchTable.trialRows(trials);

        assertTrue(rows.contains("  no trial                          10000      100%"), rows);
        assertTrue(rows.contains("  shadow 100%                        8000       80%      0.50      1.30      2.00"), rows);
        assertTrue(rows.contains("  canary 50%                         9000       90%"), rows);
        assertTrue(rows.contains("shadow at 100%: 80% of the no-trial throughput, target at least 75%; +0.30 ms on the p99"), rows);
        assertTrue(rows.contains("at half the no-trial saturation rate, 5,000 req/s; shadow work dropped with its queue full: 12"), rows);
    }

    private static void row(ObjectNode trials, String condition, double rps, double p99, long dropped) {
        ObjectNode r = trials.putObject(condition).put("saturated_rps", rps).put("half_rate_rps", 5_000).put("shadow_dropped", dropped);
        r.putObject("half_rate_latency_ms").put("p50", 0.5).put("p99", p99).put("p99.9", 2.0);
    }
}
