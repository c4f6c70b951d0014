package io.signalman.replay;

import static io.signalman.TestBundles.BROKER_HISTORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Determinism checked on every record ({@code all}) or on one in 64 picked by archive position
 * ({@code sample}, the default): how many records each checks, that the sample picks the same
 * records whatever runs it, and what each catches of a rule that decides a record two ways.
 */
class DeterminismTest {

    private static final int RECORDS = 6_400;

    @TempDir
    static Path tmp;
    private static RuleBundle twoWays;

    @BeforeAll
    static void compileTheNondeterministicRules() {
        twoWays = TestBundles.compile(NondeterministicRules.copy(tmp.resolve("two-ways")));
    }

    @Test
    void theSampleChecksAboutOneRecordInSixtyFourAndTheSameOnesWhateverTheThreads() throws Exception {
        // Given 6,400 broker records in one file, and the lines whose position the sample picks
        Path archive = tmp.resolve("many/history.jsonl");
        GeneratedArchive.write(archive, GeneratedArchive.lines(List.of("broker"), true), RECORDS);
        long picked = IntStream.rangeClosed(1, RECORDS).filter(line -> Determinism.SAMPLE.checks(Firsts.position(0, line)))
                .count();

        // When it is replayed with the default sample on one thread, then on three, then with all
        ReplayReport one = replay(TestBundles.shipped(), archive, 1, Determinism.SAMPLE);
        ReplayReport three = replay(TestBundles.shipped(), archive, 3, Determinism.SAMPLE);
        ReplayReport all = replay(TestBundles.shipped(), archive, 2, Determinism.ALL);

        // Then the sample is about one in 64, exactly the picked positions on both runs; all is every record
        assertEquals(RECORDS, one.decided(), one::toText);
        assertTrue(picked > RECORDS / 64 * 0.7 && picked < RECORDS / 64 * 1.3, "picked " + picked + " of " + RECORDS);
        assertEquals(picked, one.counts().determinismChecked());
        assertEquals(picked, three.counts().determinismChecked());
        assertEquals(RECORDS, all.counts().determinismChecked());
        assertEquals(Determinism.SAMPLE, one.determinism());
        assertEquals(Determinism.ALL, all.determinism());
    }

    @Test
    void aRecordDecidedTwoWaysIsCaughtByAllAndByTheSampleOnlyWhereItsPositionIsPicked() throws Exception {
        // Given the archive's first broker record decided two ways (one replaying thread, fresh
        // sessions), once at line 1 (a position the sample skips) and once at line 6 (one it picks)
        assertFalse(Determinism.SAMPLE.checks(Firsts.position(0, 1)));
        assertTrue(Determinism.SAMPLE.checks(Firsts.position(0, 6)));
        Path atLine6 = tmp.resolve("line6/history.jsonl");
        Files.createDirectories(atLine6.getParent());
        Files.writeString(atLine6, "\n".repeat(5) + Files.readString(BROKER_HISTORY, StandardCharsets.UTF_8), StandardCharsets.UTF_8);

        // When each is replayed with the sample, and the first with all
        ReplayReport skipped = replay(twoWays.apart(), BROKER_HISTORY, 1, Determinism.SAMPLE);
        ReplayReport all = replay(twoWays.apart(), BROKER_HISTORY, 1, Determinism.ALL);
        ReplayReport sampled = replay(twoWays.apart(), atLine6, 1, Determinism.SAMPLE);
        ReplayReport sampledAgain = replay(twoWays.apart(), atLine6, 1, Determinism.SAMPLE);

        // Then all catches it at line 1; the sample misses it there and catches it at line 6, on both runs
        assertEquals(List.of(), where(skipped), skipped::toText);
        assertEquals(List.of(BROKER_HISTORY + ":1"), where(all), all::toText);
        assertEquals(List.of(atLine6 + ":6"), where(sampled), sampled::toText);
        assertEquals(where(sampled), where(sampledAgain));
        assertEquals(0, skipped.counts().violationCount(), "the rule keeps every other invariant: " + skipped.toText());
    }

    @Test
    void theFlagTakesAllOrSampleAndNothingElse() {
        assertEquals(Determinism.ALL, Determinism.of("all"));
        assertEquals(Determinism.SAMPLE, Determinism.of(" Sample "));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Determinism.of("some"));
        assertEquals("--determinism must be all or sample, not \"some\"", e.getMessage());
    }

    private static ReplayReport replay(RuleBundle rules, Path archive, int threads, Determinism determinism) throws Exception {
        return Replayer.run(ReplayRequest.of(rules, Archive.read(List.of(archive))).withThreads(threads)
                .withDeterminism(determinism));
    }

    /** Where the determinism invariant broke, as {@code file:line}. */
    private static List<String> where(ReplayReport report) {
        return report.violations().stream().filter(v -> v.invariant().equals(NondeterministicRules.INVARIANT))
                .map(v -> v.file() + ":" + v.line()).toList();
    }
}
