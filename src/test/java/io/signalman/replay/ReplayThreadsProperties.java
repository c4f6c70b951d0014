package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A replay's report is the same, example for example, whatever the number of threads:
 * records are independent, and each part keeps its examples by archive position.
 */
class ReplayThreadsProperties {

    private static final List<String> HISTORY = GeneratedArchive.lines(GeneratedArchive.PACKS, false);
    private static final RuleBundle CHANGED = changedRules();

    @Provide
    Arbitrary<List<String>> archives() {
        Arbitrary<String> recorded = Arbitraries.of(HISTORY);
        Arbitrary<String> unreadable = Arbitraries.of("not json", "{\"decision_id\":\"x\",\"pack\":\"broker\"}", "[1,2]");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(30, recorded), net.jqwik.api.Tuple.of(1, unreadable))
                .list().ofMinSize(0).ofMaxSize(400);
    }

    @Property(tries = 12)
    void theReportIsTheSameOnOneThreadAsOnSeveral(@ForAll("archives") List<String> lines,
                                                  @ForAll @IntRange(min = 1, max = 6) int files,
                                                  @ForAll @IntRange(min = 2, max = 4) int threads) throws IOException {
        Path dir = Files.createTempDirectory("replay-threads");
        for (int f = 0; f < files; f++) {
            List<String> part = new ArrayList<>();
            for (int i = f; i < lines.size(); i += files) {
                part.add(lines.get(i));
            }
            Files.writeString(dir.resolve("part-" + f + ".jsonl"), String.join("\n", part) + (part.isEmpty() ? "" : "\n"),
                    StandardCharsets.UTF_8);
        }
        Archive archive = Archive.read(List.of(dir));

        ReplayReport one = Replayer.run(ReplayRequest.of(CHANGED, archive).withThreads(1));
        ReplayReport many = Replayer.run(ReplayRequest.of(CHANGED, archive).withThreads(threads));
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }

        assertEquals(withoutTimes(one), withoutTimes(many));
        assertEquals(one.toText().replaceAll("records in .*", ""), many.toText().replaceAll("records in .*", ""));
    }

    private static ObjectNode withoutTimes(ReplayReport r) {
        ObjectNode json = r.toJson();
        json.remove(List.of("elapsed_seconds", "records_per_second"));
        return json;
    }

    private static RuleBundle changedRules() {
        try {
            Path rules = TestBundles.copyOfRulesWithToolSmith(Files.createTempDirectory("replay-threads-rules"));
            TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"openclaw\", \"knox\")",
                    "decide.primary(\"openclaw\")");
            return TestBundles.compile(rules);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
