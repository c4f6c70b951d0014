package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * When each rule last fired, from the decision log: the newest log file's last
 * {@link #SEED_BYTES} bytes when first asked (so a restart does not forget), then every decision
 * as it is logged. Timestamps are the records' own {@code at}.
 */
final class LastFired {

    static final int SEED_BYTES = 4 * 1024 * 1024;

    private final Map<String, String> at = new ConcurrentHashMap<>();
    private final Path decisions;
    private volatile boolean seeded;

    LastFired(Path decisions) {
        this.decisions = decisions;
    }

    /** A tap on the deciding thread: a few map writes per decision. */
    void record(DecisionRecord r) {
        JsonNode fired = r.decision().path("rules_fired");
        for (JsonNode f : fired) {
            at.merge(key(r.pack(), f.path("rule").asText()), r.at(), LastFired::later);
        }
    }

    /** The last time the rule fired, or null. Blocking on first call (reads the log's tail). */
    String of(String pack, String rule) {
        seed();
        return at.get(key(pack, rule));
    }

    private synchronized void seed() {
        if (seeded) {
            return;
        }
        seeded = true;
        if (!Files.isDirectory(decisions)) {
            return;
        }
        try (Stream<Path> s = Files.list(decisions)) {
            List<Path> files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
            if (!files.isEmpty()) {
                seedFrom(files.get(files.size() - 1));
            }
        } catch (IOException e) {
            // The tail is a convenience: without it, last-fired starts from this run's decisions.
        }
    }

    private void seedFrom(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long start = Math.max(0, f.length() - SEED_BYTES);
            byte[] buf = new byte[(int) (f.length() - start)];
            f.seek(start);
            f.readFully(buf);
            String[] lines = new String(buf, StandardCharsets.UTF_8).split("\n");
            for (int i = start == 0 ? 0 : 1; i < lines.length; i++) {
                try {
                    record(DecisionRecord.fromJson(Json.parse(lines[i])));
                } catch (io.signalman.json.InputException e) {
                    // a torn last line or a partial first one: skipped
                }
            }
        }
    }

    private static String later(String a, String b) {
        try {
            return java.time.Instant.parse(a).compareTo(java.time.Instant.parse(b)) >= 0 ? a : b;
        } catch (java.time.format.DateTimeParseException e) {
            return b;
        }
    }

    private static String key(String pack, String rule) {
        return pack + '\u0000' + rule;
    }
}
