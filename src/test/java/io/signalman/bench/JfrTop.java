package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * The top frames of a Java Flight Recorder recording's CPU samples ({@code jdk.ExecutionSample}),
 * the way a profile is read: by self time (the method on top of the stack, whoever's code it is)
 * and by total time of Signalman's own methods (the samples a method of io.signalman is anywhere
 * in, lambdas left out: they repeat the method that wrote them), which says which of our steps the
 * time belongs to. Threads can be chosen by name, so a load generator sharing the
 * JVM does not count. {@code java -cp ... io.signalman.bench.JfrTop FILE.jfr [N]} prints them.
 */
public final class JfrTop {

    private JfrTop() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println(Json.write(summary(Path.of(args[0]), args.length > 1 ? Integer.parseInt(args[1]) : 15, t -> true)));
    }

    /**
     * {@code {"samples": n, "self": [{"frame", "share"}...], "total": [...]}}, the {@code top}
     * largest of each, over the samples of the threads {@code threads} accepts.
     */
    static ObjectNode summary(Path jfr, int top, Predicate<String> threads) throws IOException {
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> total = new HashMap<>();
        int samples = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            var thread = e.getThread("sampledThread");
            RecordedStackTrace stack = e.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty() || thread == null || !threads.test(thread.getJavaName())) {
                continue;
            }
            samples++;
            List<RecordedFrame> frames = stack.getFrames();
            self.merge(name(frames.get(0)), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame f : frames) {
                String n = name(f);
                if (n.startsWith("io.signalman.") && !n.contains("$$Lambda") && seen.add(n)) {
                    total.merge(n, 1, Integer::sum);
                }
            }
        }
        ObjectNode out = Json.object().put("samples", samples);
        rank(out.putArray("self"), self, samples, top);
        rank(out.putArray("total"), total, samples, top);
        return out;
    }

    /** The lines a report prints for one ranking: "  12.3%  com.example.Type.method". */
    static String lines(ObjectNode summary, String ranking, int top) {
        StringBuilder sb = new StringBuilder();
        var rows = summary.path(ranking);
        for (int i = 0; i < Math.min(top, rows.size()); i++) {
            sb.append(String.format(Locale.ROOT, "    %5.1f%%  %s%n", 100 * rows.get(i).get("share").asDouble(),
                    rows.get(i).get("frame").asText()));
        }
        return sb.toString();
    }

    private static void rank(ArrayNode into, Map<String, Integer> counts, int samples, int top) {
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(top)
                .forEach(e -> into.addObject().put("frame", e.getKey()).put("share", samples == 0 ? 0 : (double) e.getValue() / samples));
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }
}
