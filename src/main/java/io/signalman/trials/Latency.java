package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Decision latencies of one arm in fixed log-linear buckets (microseconds: exact below 16 µs,
 * then 16 buckets per power of two, each about 6% wide), so that the histograms of several nodes
 * add up to the cluster's, and a percentile is read from the sum. Recording is one atomic add.
 */
final class Latency {

    static final int SIZE = 16 + 31 * 16;

    private final AtomicLongArray counts = new AtomicLongArray(SIZE);

    void record(long nanos) {
        counts.incrementAndGet(index(Math.max(0, nanos / 1000)));
    }

    static int index(long micros) {
        if (micros < 16) {
            return (int) micros;
        }
        int e = 63 - Long.numberOfLeadingZeros(micros);
        int m = (int) (micros >>> (e - 4)) & 0xF;
        return Math.min(SIZE - 1, 16 + (e - 4) * 16 + m);
    }

    /** The upper end of a bucket, in microseconds (what a percentile reports: never less than the truth). */
    static long upper(int index) {
        if (index < 16) {
            return index + 1;
        }
        int e = (index - 16) / 16 + 4;
        int m = (index - 16) % 16;
        return (long) (17 + m) << (e - 4);
    }

    /** The non-zero buckets, as {@code {"index": count}}. */
    ObjectNode toJson() {
        ObjectNode n = Json.object();
        for (int i = 0; i < SIZE; i++) {
            long c = counts.get(i);
            if (c != 0) {
                n.put(Integer.toString(i), c);
            }
        }
        return n;
    }

    /** Adds a {@link #toJson} histogram into {@code into}. */
    static void add(long[] into, JsonNode histogram) {
        for (Iterator<Map.Entry<String, JsonNode>> it = histogram.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int i = Integer.parseInt(e.getKey());
            if (i >= 0 && i < SIZE) {
                into[i] += e.getValue().asLong();
            }
        }
    }

    /** The {@code p}-th percentile (0 < p <= 100) of summed counts, in milliseconds; 0 when empty. */
    static double percentileMs(long[] counts, double p) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(p / 100 * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upper(i) / 1000.0;
            }
        }
        return upper(counts.length - 1) / 1000.0;
    }
}
