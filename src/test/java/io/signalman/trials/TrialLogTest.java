package io.signalman.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Await;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trial log rolls like the decision log, and unlike it is bounded and never waited for. */
class TrialLogTest {

    @TempDir
    Path dir;

    @Test
    void aFullFileRollsCompressedAndOnlyTheNewestFilesAreKept() throws Exception {
        // Given a log that rolls past 100 bytes and keeps 3 files
        TrialLog log = new TrialLog(dir, 100, 3, 100);

        // When ten lines of 60 bytes are written, each once the one before is (two fill a file)
        for (int i = 1; i <= 10; i++) {
            assertTrue(log.write(line(i)));
            long written = i;
            Await.until(Duration.ofSeconds(10), "line " + i + " written", () -> log.written() == written);
        }
        log.close();

        // Then five files were made and the oldest two are gone: the rolled ones compressed, the last one open as it was
        List<Path> files = log.files();
        assertEquals(3, files.size(), files.toString());
        assertTrue(files.get(0).toString().endsWith(".jsonl.gz"), files.toString());
        assertTrue(files.get(1).toString().endsWith(".jsonl.gz"), files.toString());
        assertTrue(files.get(2).toString().endsWith(".jsonl"), files.toString());
        List<String> kept = new ArrayList<>();
        for (Path f : files) {
            kept.addAll(lines(f));
        }
        List<String> newest = new ArrayList<>();
        for (int i = 5; i <= 10; i++) {
            newest.add(new String(line(i), StandardCharsets.UTF_8));
        }
        assertEquals(newest, kept);
        try (var all = Files.list(dir)) {
            assertEquals(3, all.count(), "no temporary or uncompressed copy is left beside them");
        }
        assertEquals(0, log.dropped());
    }

    @Test
    void aLineThatFindsTheQueueFullIsDroppedAndCountedWithoutWaiting() {
        // Given a log whose writer has stopped, with room for one line
        TrialLog log = new TrialLog(dir, 1_000, 2, 1);
        log.close();

        // When two lines come, the first takes the room and the second is dropped at once
        assertTrue(log.write(line(1)));
        assertFalse(log.write(line(2)));

        assertEquals(1, log.dropped());
        assertEquals(0, log.written());
    }

    /** A line of exactly 59 bytes and its newline: {"n":1,"pad":"xx..."}. */
    private static byte[] line(int n) {
        String head = "{\"n\":" + n + ",\"pad\":\"";
        return (head + "x".repeat(59 - head.length() - 2) + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> lines(Path f) throws IOException {
        try (InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(f)) : Files.newInputStream(f)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.isEmpty() ? List.of() : List.of(text.split("\n"));
        }
    }
}
