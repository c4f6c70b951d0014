package io.signalman.replay;

import static io.signalman.TestBundles.BROKER_HISTORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Archives as the decision log leaves them: plain and gzip-compressed files, torn tails, folders with nothing to read. */
class ArchiveTest {


    @TempDir
    Path tmp;

    @Test
    void aCompressedCopyGivesTheSameReportAsThePlainFile() throws Exception {
        Path gz = gzip(Files.readAllBytes(BROKER_HISTORY), tmp.resolve("gz/history.jsonl.gz"));

        ReplayReport plain = Replayer.run(ReplayRequest.of(TestBundles.shipped(), Archive.read(List.of(BROKER_HISTORY))));
        ReplayReport compressed = Replayer.run(ReplayRequest.of(TestBundles.shipped(), Archive.read(List.of(gz.getParent()))));

        assertTrue(compressed.passed(), compressed::toText);
        assertEquals(plain.counts().records(), compressed.counts().records());
        assertEquals(plain.neverFired(), compressed.neverFired());
    }

    @Test
    void aCompressedFileCutShortIsReadAsFarAsItGoesAndItsTornLineReported() throws Exception {
        byte[] whole = Files.readAllBytes(gzip(Files.readAllBytes(BROKER_HISTORY), tmp.resolve("whole.jsonl.gz")));
        Path cut = tmp.resolve("cut/history.jsonl.gz");
        Files.createDirectories(cut.getParent());
        Files.write(cut, Arrays.copyOf(whole, whole.length * 2 / 3));

        ReplayReport report = Replayer.run(ReplayRequest.of(TestBundles.shipped(), Archive.read(List.of(cut))));

        assertTrue(report.counts().records() > 0 && report.counts().records() < Files.readAllLines(BROKER_HISTORY).size(), report::toText);
        assertTrue(report.passed(), report::toText);
        assertTrue(report.problems().stream().anyMatch(p -> p.message().contains("compressed file ends early")), report::toText);
    }

    @Test
    void aLogFileLeftBesideItsCompressedCopyIsReadOnce() throws Exception {
        Path dir = tmp.resolve("both");
        Files.createDirectories(dir);
        Files.copy(BROKER_HISTORY, dir.resolve("decisions-1.jsonl"));
        gzip(Files.readAllBytes(BROKER_HISTORY), dir.resolve("decisions-1.jsonl.gz"));

        ReplayReport report = Replayer.run(ReplayRequest.of(TestBundles.shipped(), Archive.read(List.of(dir))));

        assertEquals(Files.readAllLines(BROKER_HISTORY).size(), report.counts().records());
    }

    @Test
    void aFolderInWhichNoRecordCanBeReadIsAnErrorNotAPass() throws Exception {
        Path empty = tmp.resolve("empty");
        Files.createDirectories(empty);
        Path zst = tmp.resolve("other/decisions.jsonl.zst");
        Files.createDirectories(zst.getParent());
        Files.write(zst, new byte[] {1, 2, 3});

        CliRunner.Result none = CliRunner.run("replay", "--quiet", empty.toString());
        CliRunner.Result unknownKind = CliRunner.run("replay", "--quiet", "replay-fixtures/signals", zst.getParent().toString());

        assertEquals(2, none.code(), none.out() + none.err());
        assertTrue(none.err().contains(empty.toString()) && none.err().contains("*.jsonl.gz"), none.err());
        assertFalse(none.out().contains("PASS"), none.out());
        assertEquals(2, unknownKind.code(), unknownKind.out() + unknownKind.err());
        assertTrue(unknownKind.err().contains(zst.getParent().toString()), unknownKind.err());
    }

    static Path gzip(byte[] bytes, Path to) throws Exception {
        Files.createDirectories(to.getParent());
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
            out.write(bytes);
        }
        return to;
    }
}
