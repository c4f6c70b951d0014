package io.signalman.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.datadir.RecordLine;
import io.signalman.datadir.Writing;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state journal outlives an interrupted writer: the file is reopened, not lost for every later change. */
class StateJournalTest {

    @TempDir
    Path dir;

    @Test
    void aWriterInterruptedMidWriteFailsAloneAndTheNextWriteAndTheCloseSucceed() throws Exception {
        Path file = dir.resolve("journal-1.jsonl");
        StateJournal journal = new StateJournal(file, FsyncPolicy.INTERVAL, Writing.plain());
        journal.append(Json.object().put("n", 1));

        // An interrupted thread's write closes the channel (FileChannel is interruptible) and fails
        Thread.currentThread().interrupt();
        try {
            assertThrows(UncheckedIOException.class, () -> journal.append(Json.object().put("n", 2)));
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is the caller's to see");
        }

        // Everyone else carries on: the journal reopens its file, forces and closes cleanly
        journal.append(Json.object().put("n", 3));
        journal.force();
        journal.close();
        assertEquals(List.of("{\"n\":1}", "{\"n\":3}"), Files.readAllLines(file).stream()
                .map(l -> new String(RecordLine.unseal(l.getBytes(), 0, l.length()))).toList());
    }
}
