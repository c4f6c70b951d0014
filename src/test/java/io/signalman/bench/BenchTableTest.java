package io.signalman.bench;

import static io.signalman.TextAssertions.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

        assertContains(rows,
                "  no trial                          10000      100%",
                "  shadow 100%                        8000       80%      0.50      1.30      2.00",
                "  canary 50%                         9000       90%",
                "shadow at 100%: 80% of the no-trial throughput, target at least 75%; +0.30 ms on the p99",
                "at half the no-trial saturation rate, 5,000 req/s; shadow work dropped with its queue full: 12");
    }

    @Test
    void theHttpRowsShowEveryEndpointAsAShareOfTheTrivialGetAndOfTheEchoAndTheTargets(@TempDir Path target) throws Exception {
        // Given http.json as HttpLoad writes it: the trivial GET, the echo and the broker route with its overload phase
        Path dir = benchDir(target);
        ObjectNode http = Json.object().put("jit_wait_s", 4);
        endpoint(http, "trivial GET /health", 10_000, 0.8);
        endpoint(http, "POST /bench/echo", 8_000, 1.0);
        ObjectNode twice = endpoint(http, "POST /v1/broker/route", 6_400, 2.0).putObject("twice_rate")
                .put("rate", 12_800).put("accepted", 30_000).put("shed", 10_000);
        twice.putObject("accepted_latency_ms").put("p99", 30.0);
        twice.putObject("accepted_latency_on_connection_ms").put("p99", 12.0);
        twice.putObject("send_lag_ms").put("p50", 0.4);
        Files.writeString(dir.resolve("http.json"), Json.write(http));

        String table = BenchTable.write(dir);
        JsonNode summary = summary(dir);

        // Then every row has its share of the trivial GET and of the echo
        assertContains(table,
                "HTTP (decision log on)              req/s of trivial   of echo    p50 ms    p99 ms  p99.9 ms",
                "  trivial GET /health               10000       100%      125%",
                "  POST /bench/echo                   8000        80%      100%      0.50      1.00      2.00",
                "  POST /v1/broker/route              6400        64%       80%");
        // And the broker route against the echo, and the overload row, each with its target
        assertContains(table,
                "broker route / JSON echo (the same bodies received, parsed and answered, nothing decided): 80%"
                        + " (target at least 75%)",
                "at twice saturation (12,800 req/s offered): 25% shed with 503; accepted p99 against the"
                        + " half-rate p99 of 2.00 ms (target at most 10x, counted both ways):",
                "from the intended send: 30.00 ms, 15.0x",
                "from the connection:    12.00 ms, 6.0x (the generator sent p50 0.40 ms late)");
        // And the summary carries the echo's figures and the ratios
        assertEquals(8_000, summary.get("http").get("POST /bench/echo").get("saturated_rps").asDouble());
        assertEquals(0.8, summary.get("broker_vs_echo").asDouble(), 1e-9);
        assertEquals(15.0, summary.at("/overload_p99_vs_half_rate/from_intended_send").asDouble(), 1e-9);
        assertEquals(6.0, summary.at("/overload_p99_vs_half_rate/from_connection").asDouble(), 1e-9);
    }

    @Test
    void withoutAnEchoMeasuredTheEchoColumnIsEmptyAndNoShareOfItIsClaimed(@TempDir Path target) throws Exception {
        // Given http.json from a run without the echo
        Path dir = benchDir(target);
        ObjectNode http = Json.object();
        endpoint(http, "trivial GET /health", 10_000, 0.8);
        endpoint(http, "POST /v1/broker/route", 6_400, 2.0);
        Files.writeString(dir.resolve("http.json"), Json.write(http));

        String table = BenchTable.write(dir);

        assertContains(table, "  POST /v1/broker/route              6400        64%         -");
        assertFalse(table.contains("JSON echo"), table);
        assertFalse(summary(dir).has("broker_vs_echo"));
    }

    @Test
    void theReloadRowsShowTheBareDroolsBuildAndBothRatiosAgainstTheirTargets(@TempDir Path target) throws Exception {
        // Given reload.json as ReloadBench writes it
        Path dir = benchDir(target);
        ObjectNode reload = Json.object();
        reload(reload, "whole_file", 2.4).put("median_units_built", 10);
        reload(reload, "bare_drools", 2.0);
        reload(reload, "one_rule_changed", 0.6).put("median_units_built", 1);
        Files.writeString(dir.resolve("reload.json"), Json.write(reload));

        String table = BenchTable.write(dir);

        assertContains(table,
                "  the file of all 1,015 rules changed                      2.40     2.90     9.00     10",
                "  the same file, bare Drools (no lint, no gate)            2.00     2.50     9.00      -",
                "  one rule changed in the file of 1,015 rules              0.60     1.10     9.00      1",
                "whole-file reload / bare Drools build of the same file: 1.20x (target at most 1.2x)",
                "one rule changed / whole file changed: 25% (target at most 20%)");
        JsonNode summary = summary(dir);
        assertEquals(2.0, summary.at("/reload/bare_drools/median_seconds").asDouble());
        assertEquals(1.2, summary.get("reload_vs_bare_drools").asDouble(), 1e-9);
        assertEquals(0.25, summary.get("one_rule_vs_whole_file").asDouble(), 1e-9);
    }

    @Test
    void theReplayRowStatesItsTargetsAndTheMakeTestRowItsOwn(@TempDir Path target) throws Exception {
        // Given replay.json as ReplayBench writes it, and the wall seconds the last passing make test left
        Path dir = benchDir(target);
        ObjectNode replay = Json.object().put("records", 2_000_000).put("compression_ratio", 8.0)
                .put("python_parse_lines_per_s", 100_000).put("replay_vs_parse", 1.6);
        for (String kind : new String[] {"plain", "gzip"}) {
            replay.putObject(kind).put("records_per_s", 160_000).put("wall_seconds", 12.5).put("heap_after_gc_max_mb", 300);
        }
        ObjectNode profile = replay.putObject("profile").put("samples", 4000).put("records", 1_000_000);
        profile.putArray("total").addObject().put("frame", "io.signalman.replay.RecordReplay.chunk").put("share", 0.8);
        profile.putArray("self").addObject().put("frame", "java.util.HashMap.putVal").put("share", 0.021);
        Files.writeString(dir.resolve("replay.json"), Json.write(replay));
        Files.writeString(target.resolve("make-test-seconds"), "412.3\n");

        String table = BenchTable.write(dir);

        assertContains(table,
                "  *.jsonl                                    160000     12.5      300        1.60x",
                "targets at least 150,000 records/s and at least 1.3x the bare parse)",
                "profile of replay (flight recorder, 4,000 CPU samples over 1,000,000 records)",
                "     80.0%  io.signalman.replay.RecordReplay.chunk",
                "      2.1%  java.util.HashMap.putVal",
                "make test: 412 s wall, the last passing run (target at most 480 s on 2 cores)");
        JsonNode summary = summary(dir);
        assertEquals(1.6, summary.at("/replay/replay_vs_parse").asDouble());
        assertEquals(412.3, summary.get("make_test_seconds").asDouble());
    }

    @Test
    void withoutAMakeTestFigureThereIsNoMakeTestRow(@TempDir Path target) throws Exception {
        String table = BenchTable.write(benchDir(target));

        assertFalse(table.contains("make test"), table);
        assertFalse(summary(target.resolve("bench")).has("make_test_seconds"));
    }

    /** target/bench under a test's own target folder, where make-test-seconds lies beside it. */
    private static Path benchDir(Path target) throws Exception {
        return Files.createDirectories(target.resolve("bench"));
    }

    private static JsonNode summary(Path dir) throws Exception {
        return Json.parse(Files.readAllBytes(dir.resolve("summary.json")));
    }

    private static ObjectNode endpoint(ObjectNode http, String name, double rps, double p99) {
        ObjectNode r = http.putObject(name).put("saturated_rps", rps);
        r.putObject("half_rate_latency_ms").put("p50", 0.5).put("p99", p99).put("p99.9", 2.0);
        for (int round = 0; round < 3; round++) {
            r.withArray("rounds").addObject().put("saturated_rps", rps);
        }
        return r;
    }

    private static ObjectNode reload(ObjectNode reload, String name, double median) {
        return reload.putObject(name).put("median_seconds", median).put("max_seconds", median + 0.5).put("first_seconds", 9.0)
                .put("warm_up_reloads", 10);
    }

    private static void row(ObjectNode trials, String condition, double rps, double p99, long dropped) {
        ObjectNode r = trials.putObject(condition).put("saturated_rps", rps).put("half_rate_rps", 5_000).put("shadow_dropped", dropped);
        r.putObject("half_rate_latency_ms").put("p50", 0.5).put("p99", p99).put("p99.9", 2.0);
    }
}
