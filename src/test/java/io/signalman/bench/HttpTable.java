package io.signalman.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * The HTTP lines of the bench table, from http.json ({@link HttpLoad}): every endpoint's
 * throughput as a share of the trivial GET and of the JSON echo, its latencies at half rate, the
 * broker route against its target share of the echo, and the overload row against its target.
 */
final class HttpTable {

    static final String TRIVIAL = "trivial GET /health";
    /** The least share of the echo's saturated throughput the broker route should reach. */
    static final double BROKER_OF_ECHO_TARGET = 0.75;
    /** At twice saturation, the accepted p99 may be at most this many times the half-rate p99. */
    static final double OVERLOAD_P99_TARGET = 10;

    private HttpTable() {
    }

    /** The lines, and into {@code summary} the ratios they state against their targets. */
    static String rows(JsonNode http, ObjectNode summary) {
        StringBuilder t = new StringBuilder();
        double trivial = http.path(TRIVIAL).path("saturated_rps").asDouble();
        double echo = http.path(HttpLoad.ECHO_TARGET).path("saturated_rps").asDouble();
        t.append(String.format(Locale.ROOT, "%-30s %10s %10s %9s %9s %9s %9s%n", "HTTP (decision log on)", "req/s", "of trivial",
                "of echo", "p50 ms", "p99 ms", "p99.9 ms"));
        http.fields().forEachRemaining(e -> {
            JsonNode r = e.getValue();
            if (!r.has("saturated_rps")) {
                return;
            }
            double rps = r.get("saturated_rps").asDouble();
            JsonNode half = r.get("half_rate_latency_ms");
            t.append(String.format(Locale.ROOT, "  %-28s %10.0f %10s %9s %9.2f %9.2f %9.2f%n", e.getKey(), rps, share(rps, trivial),
                    share(rps, echo), half.get("p50").asDouble(), half.get("p99").asDouble(), half.get("p99.9").asDouble()));
        });
        t.append(String.format(Locale.ROOT, "  (each figure the median of %d rounds over every endpoint in turn; latencies at half of each"
                + " endpoint's saturation rate, open loop; measured after warm-up and %.0f s waiting for the JIT to go quiet)%n",
                http.path(TRIVIAL).path("rounds").size(), http.path("jit_wait_s").asDouble()));
        double broker = http.path(HttpLoad.OVERLOAD_TARGET).path("saturated_rps").asDouble();
        if (echo > 0 && broker > 0) {
            summary.put("broker_vs_echo", broker / echo);
            t.append(String.format(Locale.ROOT, "  broker route / JSON echo (the same bodies received, parsed and answered, nothing"
                    + " decided): %.0f%% (target at least %.0f%%)%n", 100 * broker / echo, 100 * BROKER_OF_ECHO_TARGET));
        }
        http.fields().forEachRemaining(e -> {
            JsonNode twice = e.getValue().path("twice_rate");
            if (!twice.isMissingNode()) {
                t.append(overload(e.getKey(), twice, e.getValue().at("/half_rate_latency_ms/p99").asDouble(), summary));
            }
        });
        return t.toString();
    }

    /** The overload lines: the accepted p99 as a multiple of the half-rate p99, counted both ways, against the target. */
    private static String overload(String name, JsonNode twice, double halfP99, ObjectNode summary) {
        double accepted = twice.get("accepted").asDouble();
        double fromSend = twice.at("/accepted_latency_ms/p99").asDouble();
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "  %-28s at twice saturation (%,.0f req/s offered): %.0f%%"
                + " shed with 503; accepted p99 against the half-rate p99 of %.2f ms (target at most %.0fx, counted both ways):%n",
                name, twice.get("rate").asDouble(), 100 * twice.get("shed").asDouble() / Math.max(1, accepted + twice.get("shed").asDouble()),
                halfP99, OVERLOAD_P99_TARGET));
        ObjectNode ratios = summary.putObject("overload_p99_vs_half_rate");
        ratios.put("from_intended_send", fromSend / halfP99);
        t.append(String.format(Locale.ROOT, "  %-28s   from the intended send: %.2f ms, %.1fx%n", "", fromSend, fromSend / halfP99));
        if (twice.has("accepted_latency_on_connection_ms")) {
            double fromConnection = twice.at("/accepted_latency_on_connection_ms/p99").asDouble();
            ratios.put("from_connection", fromConnection / halfP99);
            t.append(String.format(Locale.ROOT, "  %-28s   from the connection:    %.2f ms, %.1fx (the generator sent p50 %.2f ms late)%n",
                    "", fromConnection, fromConnection / halfP99, twice.at("/send_lag_ms/p50").asDouble()));
        }
        return t.toString();
    }

    /** {@code part} as a whole percentage of {@code whole}, or "-" when there is no whole to compare with. */
    private static String share(double part, double whole) {
        return whole > 0 ? String.format(Locale.ROOT, "%.0f%%", 100 * part / whole) : "-";
    }
}
