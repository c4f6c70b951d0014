package io.signalman.datadir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * a file Signalman appends to gets the decision log's treatment. A torn tail is cut
 * back to the last whole record when it opens (never glued to the next record); corruption in the
 * middle is refused naming the file and byte offset; a write the disk takes only part of is cut
 * back at once and reported; a forced append is forced before it returns.
 */
class RecordFileTest {

    @TempDir
    Path dir;

    @Test
    void aTornTailIsCutBackSoTheNextRecordIsNotGluedToIt() throws Exception {
        Path f = dir.resolve("journal-1.jsonl");
        Files.write(f, RecordLine.seal(json(1)));
        byte[] torn = RecordLine.seal(json(2));
        Files.write(f, java.util.Arrays.copyOf(torn, torn.length / 2), StandardOpenOption.APPEND);

        try (RecordFile file = RecordFile.open(f, Disk.REAL, new Storage(Disk.REAL), false)) {
            file.append(json(3), false);
        }

        assertEquals(List.of(1, 3), numbers(f));
        assertEquals(RecordScan.scan(f, false).records(), 2);
    }

    @Test
    void corruptionInTheMiddleIsRefusedNamingTheFileAndOffset() throws Exception {
        Path f = dir.resolve("answers-1.jsonl");
        byte[] first = RecordLine.seal(json(1));
        byte[] second = RecordLine.seal(json(2));
        second[5] ^= 0x01;
        Files.write(f, first);
        Files.write(f, second, StandardOpenOption.APPEND);
        Files.write(f, RecordLine.seal(json(3)), StandardOpenOption.APPEND);

        DataDirRefused e = assertThrows(DataDirRefused.class, () -> RecordFile.open(f, Disk.REAL, new Storage(Disk.REAL), false));
        assertTrue(e.getMessage().contains(f + ": the record at byte " + first.length + " (line 2) is corrupt"), e.getMessage());
        assertTrue(e.getMessage().contains("--accept-data-loss"), e.getMessage());
    }

    @Test
    void aWriteTheDiskTakesOnlyPartOfIsCutBackAndReportedAsAnOutage() throws Exception {
        Path f = dir.resolve("journal-1.jsonl");
        FillingDisk halfFull = new FillingDisk();
        Storage storage = new Storage(halfFull);
        try (RecordFile file = RecordFile.open(f, halfFull, storage, false)) {
            file.append(json(1), false);
            halfFull.full = true;
            assertThrows(StorageUnavailable.class, () -> file.append(json(2), false));
            assertFalse(storage.available());
            assertEquals(RecordLine.seal(json(1)).length, Files.size(f), "the half-written record was cut back at once");
            halfFull.full = false;
            file.append(json(3), false);
        }
        assertEquals(List.of(1, 3), numbers(f));
    }

    @Test
    void aForcedAppendIsForcedBeforeItReturns() throws Exception {
        Path f = dir.resolve("answers-1.jsonl");
        long[] forcedAt = {-1};
        Disk watching = new Disk() {
            @Override
            public void write(Path file, FileChannel channel, ByteBuffer bytes) throws IOException {
                Disk.REAL.write(file, channel, bytes);
            }

            @Override
            public void force(Path file, FileChannel channel, boolean metadata) throws IOException {
                Disk.REAL.force(file, channel, metadata);
                forcedAt[0] = channel.size();
            }
        };
        try (RecordFile file = RecordFile.open(f, watching, new Storage(watching), false)) {
            for (int i = 0; i < 5; i++) {
                file.append(json(i), true);
                // a forced append that skipped its force fails here, whatever the timing
                assertEquals(Files.size(f), forcedAt[0], "append " + i + " returned before a force covered it");
            }
        }
    }

    private static byte[] json(int n) {
        return ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static List<Integer> numbers(Path f) throws IOException {
        return Files.readAllLines(f).stream().map(l -> {
            byte[] b = l.getBytes(StandardCharsets.UTF_8);
            assertEquals(RecordLine.Check.SEALED, RecordLine.check(b, 0, b.length), l);
            return Integer.parseInt(l.replaceAll("^\\{\"n\":(\\d+),.*$", "$1"));
        }).toList();
    }
}
