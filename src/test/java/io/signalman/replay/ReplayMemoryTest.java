package io.signalman.replay;

import static io.signalman.TestBundles.TOOL_RULE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.cli.Main;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay's memory does not grow with the archive: 150,000 records, three thousand of them changed
 * by the candidate, replay in a JVM of its own with a 96 MB heap, every record counted, the
 * examples bounded. Held as parsed trees, that many records would need well over the heap (a
 * record's tree is over a kilobyte), so a replay that kept them fails here; the archive-scale runs
 * (millions of records) are {@code make bench-replay}'s.
 */
class ReplayMemoryTest {

    static final int RECORDS = 150_000;

    @TempDir
    Path tmp;

    @Test
    void aHundredAndFiftyThousandRecordsReplayInA96MegabyteHeap() throws Exception {
        List<String> lines = GeneratedArchive.lines(List.of("broker", "signals", "fsm"), true);
        Path archive = tmp.resolve("decisions/generated.jsonl.gz");
        GeneratedArchive.write(archive, lines, RECORDS);
        Path rules = TestBundles.copyOfRulesWithToolSmith(tmp);
        // Record i is a copy of line i % lines.size(): each line is read once, and counted as often as it is copied.
        long expectedChanges = 0;
        for (int k = 0; k < lines.size(); k++) {
            if (TOOL_RULE.equals(Json.parse(lines.get(k)).path("decision").path("rule").asText())) {
                expectedChanges += RECORDS / lines.size() + (k < RECORDS % lines.size() ? 1 : 0);
            }
        }
        Path report = tmp.resolve("report.json");

        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))));
        String cache = TestBundles.compiledCacheOption().strip();
        if (!cache.isEmpty()) {
            cmd.add(cache); // the suite's compiled rules: the heap is measured on the replay, not on javac
        }
        cmd.addAll(List.of(Main.class.getName(), "replay", "--quiet", "--threads", "2", "--rules", rules.toString(),
                "--report", report.toString(), archive.toString()));
        Path log = tmp.resolve("replay.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(8, TimeUnit.MINUTES), "the replay did not end in 8 minutes");
        String output = Files.readString(log, StandardCharsets.UTF_8);

        assertEquals(1, p.exitValue(), output);
        assertTrue(!output.contains("OutOfMemoryError"), output);
        JsonNode json = Json.parse(Files.readAllBytes(report));
        assertEquals(RECORDS, json.get("records").asLong());
        assertEquals(expectedChanges, json.get("changed").asLong());
        assertEquals(RECORDS - expectedChanges, json.get("unchanged").asLong());
        assertTrue(expectedChanges > 2_500, "changes to keep examples of: " + expectedChanges);
        json.get("changes").forEach(g -> assertTrue(g.get("examples").size() <= ReplayReport.EXAMPLES));
        assertEquals(0, json.get("problem_count").asLong(), output);
    }
}
