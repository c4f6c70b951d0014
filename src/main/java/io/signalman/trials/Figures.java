package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trial's figures: the snapshots of every node ({@link Tally#snapshot}) added up into the
 * cluster's ({@link #merge}), what the stop limits read of them ({@link #totals}), and what
 * {@code GET /v1/trials/{id}} shows ({@link #render}).
 */
final class Figures {

    private static final String[] ARMS = {"live", "candidate"};
    private static final String[] COUNTS = {"comparisons", "diverged", "dropped", "fallbacks", "log_dropped", "ungrouped"};
    private static final String[] ARM_COUNTS = {"decisions", "answered", "errors", "deadline_exceeded"};

    /** What the stop limits judge: the cluster's counts, and the candidate's p99. */
    record Totals(long comparisons, long diverged, long violations, String firstViolation, long candidateDecisions,
                  long candidateFailures, double candidateP99Ms) {
    }

    private Figures() {
    }

    /** Adds snapshots up: counts and histograms summed, divergences and violations grouped again. */
    static ObjectNode merge(Collection<? extends JsonNode> snapshots) {
        ObjectNode out = Json.object();
        Map<String, long[]> latencies = new LinkedHashMap<>();
        Map<String, ObjectNode> groups = new LinkedHashMap<>();
        Map<String, ObjectNode> violations = new LinkedHashMap<>();
        for (String c : COUNTS) {
            out.put(c, 0L);
        }
        ObjectNode arms = out.putObject("arms");
        for (String a : ARMS) {
            ObjectNode arm = arms.putObject(a);
            for (String c : ARM_COUNTS) {
                arm.put(c, 0L);
            }
            latencies.put(a, new long[Latency.SIZE]);
        }
        for (JsonNode s : snapshots) {
            for (String c : COUNTS) {
                out.put(c, out.get(c).asLong() + s.path(c).asLong());
            }
            for (String a : ARMS) {
                ObjectNode arm = (ObjectNode) arms.get(a);
                JsonNode theirs = s.path("arms").path(a);
                for (String c : ARM_COUNTS) {
                    arm.put(c, arm.get(c).asLong() + theirs.path(c).asLong());
                }
                Latency.add(latencies.get(a), theirs.path("latency_us"));
            }
            for (JsonNode g : s.path("divergences")) {
                String key = g.path("pack").asText() + '\u0000' + g.path("live_rule").asText() + '\u0000'
                        + g.path("candidate_rule").asText();
                ObjectNode mine = groups.computeIfAbsent(key, k -> Json.object().put("pack", g.path("pack").asText())
                        .put("live_rule", g.path("live_rule").asText()).put("candidate_rule", g.path("candidate_rule").asText())
                        .put("count", 0L).set("examples", Json.array()));
                mine.put("count", mine.get("count").asLong() + g.path("count").asLong());
                ArrayNode ex = (ArrayNode) mine.get("examples");
                for (JsonNode e : g.path("examples")) {
                    if (ex.size() < Tally.EXAMPLES) {
                        ex.add(e);
                    }
                }
            }
            for (JsonNode v : s.path("invariant_violations")) {
                String key = v.path("pack").asText() + '\u0000' + v.path("invariant").asText();
                ObjectNode mine = violations.computeIfAbsent(key, k -> Json.object().put("pack", v.path("pack").asText())
                        .put("invariant", v.path("invariant").asText()).put("count", 0L).set("example", v.get("example")));
                mine.put("count", mine.get("count").asLong() + v.path("count").asLong());
            }
        }
        for (String a : ARMS) {
            ObjectNode h = Json.object();
            long[] counts = latencies.get(a);
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] != 0) {
                    h.put(Integer.toString(i), counts[i]);
                }
            }
            ((ObjectNode) arms.get(a)).set("latency_us", h);
        }
        ArrayNode gs = out.putArray("divergences");
        groups.values().forEach(gs::add);
        ArrayNode vs = out.putArray("invariant_violations");
        violations.values().forEach(vs::add);
        return out;
    }

    static Totals totals(JsonNode merged) {
        JsonNode cand = merged.path("arms").path("candidate");
        long violations = 0;
        String first = null;
        for (JsonNode v : merged.path("invariant_violations")) {
            violations += v.path("count").asLong();
            if (first == null) {
                first = "\"" + v.path("invariant").asText() + "\" in pack " + v.path("pack").asText() + ": "
                        + v.path("example").path("message").asText();
            }
        }
        return new Totals(merged.path("comparisons").asLong(), merged.path("diverged").asLong(), violations, first,
                cand.path("decisions").asLong(), cand.path("errors").asLong() + cand.path("deadline_exceeded").asLong(),
                percentile(cand, 99));
    }

    private static double percentile(JsonNode arm, double p) {
        long[] counts = new long[Latency.SIZE];
        Latency.add(counts, arm.path("latency_us"));
        return Latency.percentileMs(counts, p);
    }

    /** The figures as {@code GET /v1/trials/{id}} shows them: rates, percentiles, the groups by count. */
    static ObjectNode render(JsonNode merged) {
        ObjectNode out = Json.object();
        ObjectNode arms = out.putObject("arms");
        for (String a : ARMS) {
            JsonNode arm = merged.path("arms").path(a);
            long decisions = arm.path("decisions").asLong();
            ObjectNode n = arms.putObject(a);
            n.put("decisions", decisions);
            n.put("answered", arm.path("answered").asLong());
            n.put("errors", arm.path("errors").asLong());
            n.put("deadline_exceeded", arm.path("deadline_exceeded").asLong());
            n.put("error_rate", rate(arm.path("errors").asLong(), decisions));
            n.put("deadline_rate", rate(arm.path("deadline_exceeded").asLong(), decisions));
            n.putObject("latency_ms").put("p50", percentile(arm, 50)).put("p99", percentile(arm, 99))
                    .put("max", percentile(arm, 100));
        }
        long comparisons = merged.path("comparisons").asLong();
        long diverged = merged.path("diverged").asLong();
        out.put("comparisons", comparisons);
        out.put("agreed", comparisons - diverged);
        out.put("diverged", diverged);
        if (comparisons == 0) {
            out.putNull("agreement_rate");
        } else {
            out.put("agreement_rate", rate(comparisons - diverged, comparisons));
        }
        out.put("fallbacks", merged.path("fallbacks").asLong());
        out.put("shadow_dropped", merged.path("dropped").asLong());
        out.put("log_dropped", merged.path("log_dropped").asLong());
        out.put("divergences_not_grouped", merged.path("ungrouped").asLong());
        List<JsonNode> groups = new ArrayList<>();
        merged.path("divergences").forEach(groups::add);
        groups.sort(Comparator.comparingLong((JsonNode g) -> -g.path("count").asLong())
                .thenComparing(g -> g.path("live_rule").asText()).thenComparing(g -> g.path("candidate_rule").asText()));
        ArrayNode gs = out.putArray("divergences");
        groups.forEach(gs::add);
        out.set("invariant_violations", merged.path("invariant_violations").deepCopy());
        return out;
    }

    private static double rate(long part, long whole) {
        return whole == 0 ? 0 : Math.round(part * 1_000_000.0 / whole) / 1_000_000.0;
    }
}
