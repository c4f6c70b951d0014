package io.signalman.decisionlog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogFilesTest {

    @Test
    void aFileNameCarriesItsSequenceZeroPaddedSoNamesSortInWritingOrder() {
        String ninth = LogFiles.name(Instant.parse("2026-11-21T10:00:00Z"), 42, 9);
        String tenth = LogFiles.name(Instant.parse("2026-11-21T10:00:00Z"), 42, 10);
        assertEquals("decisions-20261121T100000Z-42-000009.jsonl", ninth);
        assertEquals(-1, Integer.signum(ninth.compareTo(tenth)));
    }

    @Test
    void oldUnpaddedNamesAndRolledFilesAreReadInTheOrderTheyWereWritten() {
        Path dir = Path.of("data/decisions");
        List<Path> written = List.of(
                dir.resolve("decisions-20261120T090000Z-7-2.jsonl"),
                dir.resolve("decisions-20261120T090000Z-7-9.jsonl.gz"),
                dir.resolve("decisions-20261120T090000Z-7-10.jsonl"),
                dir.resolve("decisions-20261121T100000Z-42-000001.jsonl.gz"),
                dir.resolve("decisions-20261121T100000Z-42-000002.jsonl"));
        List<Path> shuffled = new ArrayList<>(written);
        java.util.Collections.reverse(shuffled);
        shuffled.sort(LogFiles.ORDER);
        assertEquals(written, shuffled);
    }

    @Test
    void otherNamesKeepTheirPlainOrder() {
        List<Path> names = new ArrayList<>(List.of(Path.of("f/b.jsonl"), Path.of("f/a10.jsonl"), Path.of("f/a9.jsonl")));
        names.sort(LogFiles.ORDER);
        assertEquals(List.of(Path.of("f/a10.jsonl"), Path.of("f/a9.jsonl"), Path.of("f/b.jsonl")), names);
    }
}
