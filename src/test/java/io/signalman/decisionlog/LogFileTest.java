package io.signalman.decisionlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.FillingDisk;
import io.signalman.replay.Archive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision log's file: it rolls once past its size (the rolled file compressed, whole), and
 * a batch the disk took only half of is cut back before the next write, so no file keeps a
 * broken line.
 */
class LogFileTest {

    @TempDir
    Path dir;

    @Test
    void rollsPastItsSizeAndCutsAHalfWrittenBatchBackBeforeTheNextWrite() throws Exception {
        FillingDisk halfFull = new FillingDisk();
        List<String> ids = new ArrayList<>();
        try (RollCompressor compressor = new RollCompressor(FileRegistry.NONE)) {
            LogFile file = new LogFile(dir, halfFull, FileRegistry.NONE, compressor, 1_000);
            for (int i = 0; i < 30; i++) {
                List<byte[]> batch = batch(i);
                if (i % 7 == 3) {
                    halfFull.full = true;
                    assertThrows(IOException.class, () -> file.write(batch));
                    halfFull.full = false;
                }
                file.write(batch);
                ids.add("b" + i + "-0");
                ids.add("b" + i + "-1");
            }
            file.force();
            file.close();
        }
        // Several files (the rolled ones compressed), every record once, in order, nothing broken
        Archive archive = Archive.read(List.of(dir));
        assertEquals(List.of(), archive.files().stream().flatMap(f -> f.problems().stream()).toList());
        assertTrue(archive.files().size() > 3, "rolled at 1,000 bytes: " + archive.files().size() + " files");
        assertEquals(ids, archive.files().stream().flatMap(f -> f.entries().stream()).map(e -> e.record().decisionId()).toList());
    }

    private static List<byte[]> batch(int i) {
        List<byte[]> out = new ArrayList<>();
        for (int j = 0; j < 2; j++) {
            out.add(("{\"decision_id\":\"b" + i + "-" + j + "\",\"at\":\"2026-11-23T10:00:00Z\",\"pack\":\"broker\","
                    + "\"endpoint\":\"/v1/broker/route\",\"rules_revision\":\"sha256:x\",\"input\":{\"pad\":\"" + "x".repeat(100)
                    + "\"},\"decision\":{}}\n").getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }
}
