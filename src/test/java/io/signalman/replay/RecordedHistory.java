package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A pack's recorded history checked record by record against an oracle of its own. */
public final class RecordedHistory {

    private RecordedHistory() {
    }

    /** An oracle over one file of a history: what it finds wrong with an entry (nothing: it agrees). */
    @FunctionalInterface
    public interface Check {
        List<String> mismatches(Archive.Entry entry) throws Exception;
    }

    /** The oracle of a file, given the shipped rules with that file's reference data. */
    @FunctionalInterface
    public interface Oracle {
        Check of(RuleBundle rules) throws Exception;
    }

    /**
     * Fails listing every mismatch found over the history in {@code path}, file by file: {@code oracle}
     * is given the shipped rules with the file's own reference data, and answers, for each entry of
     * the file, what in it differs from what the oracle decides (nothing: it agrees). Each mismatch is
     * listed at its file and line.
     */
    public static void assertEveryRecord(Path path, Oracle oracle)
            throws Exception {
        RuleBundle shipped = TestBundles.shipped();
        List<String> mismatches = new ArrayList<>();
        for (Archive.ArchiveFile file : Archive.read(List.of(path)).files()) {
            Check check = oracle.of(shipped.withReference(file.reference()));
            for (Archive.Entry e : file.entries()) {
                check.mismatches(e).forEach(m -> mismatches.add(file.path() + ":" + e.line() + " " + m));
            }
        }
        assertEquals(List.of(), mismatches);
    }
}
