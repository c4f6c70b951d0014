package io.signalman.datadir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A sealed line checks, any byte changed in it does not, and a reader that ignores the field reads the record. */
class RecordLineTest {

    private static final byte[] RECORD = "{\"decision_id\":\"01A\",\"input\":{\"text\":\"café\"}}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aSealedLineChecksAndEveryChangedByteIsCaught() throws Exception {
        byte[] line = RecordLine.seal(RECORD);
        int len = line.length - 1;
        assertEquals('\n', line[len]);
        assertEquals(RecordLine.Check.SEALED, RecordLine.check(line, 0, len));
        for (int i = 0; i < len; i++) {
            byte[] bad = line.clone();
            bad[i] ^= 0x04;
            assertTrue(RecordLine.check(bad, 0, len) != RecordLine.Check.SEALED, "byte " + i + " changed, still checks");
        }
        // ... and JSON readers see the record, the checksum as one more field
        assertEquals("01A", Json.parse(new String(line, 0, len, StandardCharsets.UTF_8)).get("decision_id").asText());
        assertArrayEquals(RECORD, RecordLine.unseal(line, 0, len));
    }

    @Test
    void aLineWithoutAChecksumIsUnsealedAndAPartialOneCorrupt() {
        assertEquals(RecordLine.Check.UNSEALED, RecordLine.check(RECORD, 0, RECORD.length));
        byte[] line = RecordLine.seal(RECORD);
        assertEquals(RecordLine.Check.CORRUPT, RecordLine.check(line, 0, line.length / 2));
    }
}
