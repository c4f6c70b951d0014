package io.signalman.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;

/** Reads target/bench/*.json and prints the performance figures as one table (and summary.json). */
public final class BenchTable {

    /** {@code make test}'s wall time on two cores may be at most this many seconds. */
    static final double MAKE_TEST_TARGET_SECONDS = 480;
    /** Replay targets: records a second, and the share of a bare python3 parse of the same lines. */
    static final double REPLAY_TARGET_RECORDS_PER_S = 150_000;
    static final double REPLAY_TARGET_VS_PARSE = 1.3;

    private BenchTable() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println(write(HistoryInputs.benchDir()));
    }

    /**
     * The table of what {@code dir} holds (jmh.json, http.json, reload.json, ... each when there),
     * with the wall seconds of the last passing {@code make test} beside {@code dir}
     * (target/make-test-seconds); writes summary.json into {@code dir} and returns the table.
     */
    static String write(Path dir) throws Exception {
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
        section(dir, summary, t, "soak", BenchTable::soakRow);
        section(dir, summary, t, "http", http -> HttpTable.rows(http, summary));
        section(dir, summary, t, "tracing", TracingBench::row);
        section(dir, summary, t, "trials", BenchTable::trialRows);
        section(dir, summary, t, "reload", reload -> ReloadTable.rows(reload, summary));
        section(dir, summary, t, "replay", BenchTable::replayRows);
        section(dir, summary, t, "state", BenchTable::stateRows);
        Path makeTest = dir.resolveSibling("make-test-seconds");
        if (Files.exists(makeTest)) {
            double seconds = Double.parseDouble(Files.readString(makeTest).strip());
            summary.put("make_test_seconds", seconds);
            t.append(String.format(Locale.ROOT, "make test: %.0f s wall, the last passing run (target at most %.0f s on 2 cores)%n",
                    seconds, MAKE_TEST_TARGET_SECONDS));
        }
        Files.writeString(dir.resolve("summary.json"), Json.write(summary) + "\n");
        return t.toString();
    }

    /**
     * When {@code dir} holds {@code name}.json: puts what it holds into the summary under {@code name},
     * then appends its rows to the table.
     */
    private static void section(Path dir, ObjectNode summary, StringBuilder t, String name, Function<JsonNode, String> rows)
            throws Exception {
        JsonNode figures = read(dir.resolve(name + ".json"));
        if (figures != null) {
            summary.set(name, figures);
            t.append(rows.apply(figures));
        }
    }

    /** soak.json's row: the heap after a long run of broker decisions. */
    private static String soakRow(JsonNode soak) {
        return String.format(Locale.ROOT, "soak: %,d broker decisions, heap after 1M %.1f MB, after all %.1f MB (growth %.1f MB)%n",
                soak.get("decisions").asLong(), soak.get("heap_after_first_million_mb").asDouble(),
                soak.get("heap_after_all_mb").asDouble(), soak.get("growth_mb").asDouble());
    }

    /** replay.json's rows: plain and gzipped archives against their targets, and the profile when there is one. */
    private static String replayRows(JsonNode replay) {
        StringBuilder t = new StringBuilder();
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
                + " most left after a GC; vs parse: python3 json.loads per line on one core, %.0f lines/s; targets at least"
                + " %,.0f records/s and at least %.1fx the bare parse)%n", replay.path("python_parse_lines_per_s").asDouble(),
                REPLAY_TARGET_RECORDS_PER_S, REPLAY_TARGET_VS_PARSE));
        JsonNode profile = replay.path("profile");
        if (profile.isObject()) {
            t.append(String.format(Locale.ROOT, "  profile of replay (flight recorder, %,d CPU samples over %,d records), by total:%n",
                    profile.path("samples").asLong(), profile.path("records").asLong()));
            t.append(JfrTop.lines((ObjectNode) profile, "total", 12));
            t.append("  by self:\n").append(JfrTop.lines((ObjectNode) profile, "self", 8));
        }
        return t.toString();
    }

    /** state.json's rows: durable state against memory over HTTP, the start-up, and design (b) on MVStore. */
    private static String stateRows(JsonNode state) {
        StringBuilder t = new StringBuilder();
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
        return t.toString();
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
