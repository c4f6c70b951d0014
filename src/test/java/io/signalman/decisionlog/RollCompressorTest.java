package io.signalman.decisionlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rolled decision-log file is replaced by its gzip copy, whole, and only once the copy is on disk. */
class RollCompressorTest {

    @TempDir
    Path tmp;

    @Test
    void aRolledFileBecomesItsCompressedCopyAndTheOriginalIsRemoved() throws Exception {
        Path rolled = tmp.resolve("decisions-20261123T100000Z-1-1.jsonl");
        byte[] bytes = Files.readAllBytes(TestBundles.BROKER_HISTORY);
        Files.write(rolled, bytes);

        try (RollCompressor c = new RollCompressor(io.signalman.datadir.FileRegistry.NONE)) {
            c.submit(rolled);
        }

        Path gz = tmp.resolve(rolled.getFileName() + ".gz");
        assertTrue(Files.exists(gz));
        assertFalse(Files.exists(rolled));
        assertFalse(Files.exists(tmp.resolve(rolled.getFileName() + ".gz.tmp")));
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
        assertTrue(Files.size(gz) * 5 < bytes.length, "compressed to " + Files.size(gz) + " of " + bytes.length);
    }
}
