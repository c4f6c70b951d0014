package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reload bench's clock: warm-up reloads, then measured ones, of one or more kinds of reload
 * taken in turn round by round, so that a slow spell of the shared machine falls on each of them
 * alike and a ratio between two of them compares like with like.
 */
final class TimedReloads {

    /** One kind of reload: {@link #prepare} writes round {@code round} untimed, {@link #load} is timed. */
    interface Reload extends AutoCloseable {
        void prepare(int round) throws Exception;

        /** Loads what {@link #prepare} wrote; returns the compile units built, or -1 where there are none. */
        long load() throws Exception;

        /** Adds what the reload knows once measured (its rule count, its cache) to its figures. */
        void describe(ObjectNode figures);

        @Override
        default void close() {
        }
    }

    private TimedReloads() {
    }

    /**
     * {@code warm} reloads of each, then {@code measured} timed ones, in turn; per reload, its
     * median, min and max seconds, the first (on a fresh engine: a cold JIT for the first reload
     * of the run, a warmer one for those after it), the warm-up count and, where it has compile
     * units, the median built. Closes every reload.
     */
    static Map<String, ObjectNode> measure(Map<String, Reload> reloads, int warm, int measured) throws Exception {
        Map<String, double[]> seconds = new LinkedHashMap<>();
        Map<String, long[]> built = new LinkedHashMap<>();
        Map<String, Double> first = new LinkedHashMap<>();
        reloads.keySet().forEach(name -> {
            seconds.put(name, new double[measured]);
            built.put(name, new long[measured]);
        });
        try {
            for (int i = 0; i < warm + measured; i++) {
                for (Map.Entry<String, Reload> r : reloads.entrySet()) {
                    r.getValue().prepare(i);
                    long t0 = System.nanoTime();
                    long units = r.getValue().load();
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.printf("%s reload %d (%s): %.2f s%s%n", r.getKey(), i + 1, i < warm ? "warm-up" : "measured", s,
                            units < 0 ? "" : ", " + units + " units built");
                    first.putIfAbsent(r.getKey(), s);
                    if (i >= warm) {
                        seconds.get(r.getKey())[i - warm] = s;
                        built.get(r.getKey())[i - warm] = units;
                    }
                }
            }
            Map<String, ObjectNode> out = new LinkedHashMap<>();
            for (Map.Entry<String, Reload> r : reloads.entrySet()) {
                double[] s = seconds.get(r.getKey());
                long[] u = built.get(r.getKey());
                Arrays.sort(s);
                Arrays.sort(u);
                ObjectNode figures = Json.object().put("median_seconds", s[measured / 2]).put("min_seconds", s[0])
                        .put("max_seconds", s[measured - 1]).put("first_seconds", first.get(r.getKey())).put("warm_up_reloads", warm);
                if (u[0] >= 0) {
                    figures.put("median_units_built", u[measured / 2]);
                }
                r.getValue().describe(figures);
                out.put(r.getKey(), figures);
            }
            return out;
        } finally {
            for (Reload r : reloads.values()) {
                r.close();
            }
        }
    }
}
