package io.signalman.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Reads target/bench/*.json and prints the performance figures as one table (and summary.json). */
public final class BenchTable {

    /** reload.json's edits, as the table names them. */
    private static final String[][] RELOAD_EDITS = {
        {"whole_file", "the file of all 1,015 rules changed"},
        {"one_file_changed", "one of ten files of 100 rules changed"},
        {"one_rule_changed", "one rule changed in the file of 1,015 rules"},
    };

    private BenchTable() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = HistoryInputs.benchDir();
        ObjectNode summary = Json.object();
        StringBuilder t = new StringBuilder("\n=== Signalman benchmark (" + Runtime.getRuntime().availableProcessors()
                + " cores, " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ")\n");
        JsonNode jmh = read(dir.resolve("jmh.json"));
        double ifChain = Double.NaN;
        double brokerDrl = Double.NaN;
        double easyRules = Double.NaN;
        if (jmh != null) {
            t.append(String.format(Locale.ROOT, "%-46s %12s%n", "in-process decision (JMH, avg)", "ns/op"));
            for (JsonNode b : jmh) {
                String name = b.get("benchmark").asText().replace("io.signalman.bench.", "");
                JsonNode params = b.path("params");
                if (params.has("pack")) {
                    name += " " + params.get("pack").asText() + (params.get("explain").asBoolean() ? " +explain" : "");
                }
                double score = b.get("primaryMetric").get("score").asDouble();
                summary.with("jmh_ns_per_op").put(name, score);
                t.append(String.format(Locale.ROOT, "  %-44s %12.0f%n", name, score));
                if (name.equals("BrokerBench.handWrittenIfChain")) {
                    ifChain = score;
                }
                if (name.equals("BrokerBench.drlDecision")) {
                    brokerDrl = score;
                }
                if (name.equals("PeerBench.easyRules")) {
                    easyRules = score;
                }
            }
            double ratio = brokerDrl / ifChain;
            summary.put("broker_vs_if_chain", ratio);
            t.append(String.format(Locale.ROOT, "  broker decide / hand-written if-chain: %.1fx (target at most 30x)%n", ratio));
            if (!Double.isNaN(easyRules)) {
                double peer = easyRules / brokerDrl;
                summary.put("easy_rules_vs_broker", peer);
                t.append(String.format(Locale.ROOT, "  Easy Rules (MVEL) / broker decide, same rules and messages: %.1fx "
                        + "(target above 1: Signalman faster)%n", peer));
            }
        }
        JsonNode soak = read(dir.resolve("soak.json"));
        if (soak != null) {
            summary.set("soak", soak);
            t.append(String.format(Locale.ROOT, "soak: %,d broker decisions, heap after 1M %.1f MB, after all %.1f MB (growth %.1f MB)%n",
                    soak.get("decisions").asLong(), soak.get("heap_after_first_million_mb").asDouble(),
                    soak.get("heap_after_all_mb").asDouble(), soak.get("growth_mb").asDouble()));
        }
        JsonNode http = read(dir.resolve("http.json"));
        if (http != null) {
            summary.set("http", http);
            double trivial = http.path("trivial GET /health").path("saturated_rps").asDouble();
            t.append(String.format(Locale.ROOT, "%-30s %10s %9s %9s %9s %9s%n", "HTTP (decision log on)", "req/s", "of trivial",
                    "p50 ms", "p99 ms", "p99.9 ms"));
            http.fields().forEachRemaining(e -> {
                JsonNode r = e.getValue();
                if (!r.has("saturated_rps")) {
                    return;
                }
                JsonNode half = r.get("half_rate_latency_ms");
                t.append(String.format(Locale.ROOT, "  %-28s %10.0f %8.0f%% %9.2f %9.2f %9.2f%n", e.getKey(),
                        r.get("saturated_rps").asDouble(), 100 * r.get("saturated_rps").asDouble() / trivial,
                        half.get("p50").asDouble(), half.get("p99").asDouble(), half.get("p99.9").asDouble()));
            });
            t.append(String.format(Locale.ROOT, "  (each figure the median of %d rounds over every endpoint in turn; latencies at half of each"
                    + " endpoint's saturation rate, open loop; measured after warm-up and %.0f s waiting for the JIT to go quiet)%n",
                    http.path("trivial GET /health").path("rounds").size(), http.path("jit_wait_s").asDouble()));
            http.fields().forEachRemaining(e -> {
                JsonNode twice = e.getValue().path("twice_rate");
                if (!twice.isMissingNode()) {
                    double accepted = twice.get("accepted").asDouble();
                    t.append(String.format(Locale.ROOT, "  %-28s at twice saturation (%,.0f req/s offered): accepted p99 %.2f ms"
                            + " (half rate %.2f ms), %.0f%% shed with 503%n", e.getKey(), twice.get("rate").asDouble(),
                            twice.at("/accepted_latency_ms/p99").asDouble(), e.getValue().at("/half_rate_latency_ms/p99").asDouble(),
                            100 * twice.get("shed").asDouble() / Math.max(1, accepted + twice.get("shed").asDouble())));
                    if (twice.has("accepted_latency_on_connection_ms")) {
                        t.append(String.format(Locale.ROOT, "  %-28s   accepted p99 %.2f ms from the connection carrying it;"
                                + " the generator sent p50 %.2f ms late%n", "", twice.at("/accepted_latency_on_connection_ms/p99")
                                .asDouble(), twice.at("/send_lag_ms/p50").asDouble()));
                    }
                }
            });
        }
        JsonNode trials = read(dir.resolve("trials.json"));
        if (trials != null) {
            summary.set("trials", trials);
            t.append(trialRows(trials));
        }
        JsonNode reload = read(dir.resolve("reload.json"));
        if (reload != null) {
            summary.set("reload", reload);
            t.append(String.format(Locale.ROOT, "%-54s %8s %8s %8s %6s%n", "reload of 1,000 generated broker rules, warm",
                    "median s", "max s", "first s", "units"));
            for (String[] edit : RELOAD_EDITS) {
                JsonNode r = reload.path(edit[0]);
                if (!r.isMissingNode()) {
                    t.append(String.format(Locale.ROOT, "  %-52s %8.2f %8.2f %8.2f %6d%n", edit[1], r.get("median_seconds").asDouble(),
                            r.get("max_seconds").asDouble(), r.path("first_seconds").asDouble(), r.get("median_units_built").asLong()));
                }
            }
            t.append(String.format(Locale.ROOT, "  (compile + gate; median of 5 after %d warm-up reloads; first: the first load of a fresh"
                    + " engine, cold JIT, every unit built; units: compile units rebuilt per reload; target under 2 s)%n",
                    reload.path("whole_file").path("warm_up_reloads").asInt()));
        }
        JsonNode replay = read(dir.resolve("replay.json"));
        if (replay != null) {
            summary.set("replay", replay);
            t.append(String.format(Locale.ROOT, "%-40s %10s %8s %8s %12s%n", "replay of " + String.format(Locale.ROOT, "%,d",
                    replay.get("records").asLong()) + " records", "records/s", "wall s", "heap MB", "vs parse"));
            for (String kind : new String[] {"plain", "gzip"}) {
                JsonNode r = replay.get(kind);
                t.append(String.format(Locale.ROOT, "  %-38s %10.0f %8.1f %8d %12s%n", kind.equals("plain") ? "*.jsonl"
                        : "*.jsonl.gz (ratio " + String.format(Locale.ROOT, "%.1f", replay.get("compression_ratio").asDouble()) + "x)",
                        r.get("records_per_s").asDouble(), r.get("wall_seconds").asDouble(), r.get("heap_after_gc_max_mb").asLong(),
                        kind.equals("plain") && replay.has("replay_vs_parse")
                                ? String.format(Locale.ROOT, "%.2fx", replay.get("replay_vs_parse").asDouble()) : ""));
            }
            t.append(String.format(Locale.ROOT, "  (bin/signalman replay in its own JVM, -Xmx512m, wall clock with start-up; heap: the"
                    + " most left after a GC; vs parse: python3 json.loads per line on one core, %.0f lines/s; targets 150,000"
                    + " records/s and 0.5x)%n", replay.path("python_parse_lines_per_s").asDouble()));
        }
        JsonNode state = read(dir.resolve("state.json"));
        if (state != null) {
            summary.set("state", state);
            t.append(String.format(Locale.ROOT, "%-30s %10s %10s %10s %9s %9s%n", "durable state (HTTP saturated)", "memory",
                    "durable", "always", "durable %", "always %"));
            state.path("http").fields().forEachRemaining(e -> {
                JsonNode r = e.getValue();
                t.append(String.format(Locale.ROOT, "  %-28s %10.0f %10.0f %10.0f %8.0f%% %8.0f%%%n", e.getKey(),
                        r.get("memory_rps").asDouble(), r.get("durable_rps").asDouble(), r.get("durable_fsync_always_rps").asDouble(),
                        100 * r.get("durable_vs_memory").asDouble(), 100 * r.get("always_vs_memory").asDouble()));
            });
            t.append("  (durable: --data, --fsync interval; always: --fsync always; target: durable at least 80% of memory)\n");
            JsonNode up = state.path("startup");
            if (!up.isMissingNode()) {
                t.append(String.format(Locale.ROOT, "  start-up with %,d live conversations: %.1f s (%.1f s CPU), %.0f MB on disk,"
                        + " %.0f MB heap%n", up.get("conversations").asLong(), up.get("recover_s").asDouble(),
                        up.path("recover_cpu_s").asDouble(), up.get("disk_mb").asDouble(), up.get("heap_mb").asDouble()));
            }
            JsonNode mv = state.path("mvstore");
            if (!mv.isMissingNode()) {
                t.append(String.format(Locale.ROOT, "  design (b), MVStore: open %.2f s, read all %.1f s, %.0f MB, put+commit+sync %.0f µs%n",
                        mv.get("open_s").asDouble(), mv.get("read_all_s").asDouble(), mv.get("disk_mb").asDouble(),
                        mv.get("put_commit_sync_us").asDouble()));
            }
        }
        Files.writeString(dir.resolve("summary.json"), Json.write(summary) + "\n");
        System.out.println(t);
    }

    /** trials.json's rows: the broker route with no trial, a shadow at 100%, a canary at 50%. */
    static String trialRows(JsonNode trials) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "%-30s %10s %9s %9s %9s %9s%n", "broker route, live trial",
                "req/s", "of none", "p50 ms", "p99 ms", "p99.9 ms"));
        double none = trials.path(TrialBench.NONE).path("saturated_rps").asDouble();
        for (String c : new String[] {TrialBench.NONE, TrialBench.SHADOW, TrialBench.CANARY}) {
            JsonNode r = trials.path(c);
            if (r.isMissingNode()) {
                continue;
            }
            JsonNode half = r.path("half_rate_latency_ms");
            t.append(String.format(Locale.ROOT, "  %-28s %10.0f %8.0f%% %9.2f %9.2f %9.2f%n", c, r.path("saturated_rps").asDouble(),
                    100 * r.path("saturated_rps").asDouble() / none, half.path("p50").asDouble(), half.path("p99").asDouble(),
                    half.path("p99.9").asDouble()));
        }
        t.append(String.format(Locale.ROOT, "  (shadow at 100%%: %.0f%% of the no-trial throughput, target at least 75%%; %+.2f ms on the"
                + " p99 at half load, target at most +0.5 ms; every condition at half the no-trial saturation rate, %,.0f req/s;"
                + " shadow work dropped with its queue full: %d)%n", 100 * trials.path("shadow_vs_no_trial").asDouble(),
                trials.path("shadow_added_p99_ms").asDouble(), trials.path(TrialBench.NONE).path("half_rate_rps").asDouble(),
                trials.path(TrialBench.SHADOW).path("shadow_dropped").asLong()));
        return t.toString();
    }

    private static JsonNode read(Path p) throws Exception {
        return Files.exists(p) ? Json.parse(Files.readAllBytes(p)) : null;
    }
}
