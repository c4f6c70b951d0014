package io.signalman.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.DataDirRefused;
import io.signalman.datadir.Disk;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Verify;
import io.signalman.datadir.Writing;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * one owner per data directory, and a directory that is whole. The state and the
 * decision log are written through a real {@link DataDir} (its manifest registering every file),
 * then pieces are deleted, added or damaged by hand, as an operator might.
 */
class DataDirTest {

    private static final StoreSpec<String> SPEC = new StoreSpec<>("notes", TextNode::valueOf, n -> n.asText(), s -> false);

    @TempDir
    Path root;

    @Test
    void aSecondOwnerIsRefusedNamingTheProcessThatHoldsIt() {
        try (DataDir first = DataDir.open(root, false)) {
            DataDirRefused e = assertThrows(DataDirRefused.class, () -> DataDir.open(root, false));
            assertTrue(e.getMessage().contains("in use by this process (pid " + ProcessHandle.current().pid() + ")"),
                    e.getMessage());
        }
        DataDir.open(root, false).close(); // released with its owner
    }

    @Test
    void aDeletedSnapshotOrLogFileIsNamedAndRefusedUnlessTheLossIsAccepted() throws Exception {
        write(root, 3);
        Path snapshot = only(root.resolve("state"), "snapshot-");
        Path logFile = only(root.resolve("decisions"), "decisions-");
        Files.delete(snapshot);
        Files.delete(logFile);

        DataDirRefused e = assertThrows(DataDirRefused.class, () -> DataDir.open(root, false));
        assertTrue(e.getMessage().contains("state/" + snapshot.getFileName() + " is missing"), e.getMessage());
        assertTrue(e.getMessage().contains("decisions/" + logFile.getFileName() + " is missing"), e.getMessage());
        assertFalse(Verify.check(root).ok());

        // Accepting the loss, the directory is listed as it now is, and opens from then on
        DataDir.open(root, true).close();
        DataDir.open(root, false).close();
        assertTrue(Verify.check(root).ok(), Verify.check(root).problems().toString());
    }

    @Test
    void aForeignFileIsRefusedAndSetAsideWhenTheLossIsAccepted() throws Exception {
        write(root, 2);
        Path other = Files.createDirectories(root.resolve("other"));
        write(other, 2);
        Path foreign = only(other.resolve("decisions"), "decisions-");
        Path copied = root.resolve("decisions").resolve(foreign.getFileName().toString().replace("decisions-", "decisions-0"));
        Files.copy(foreign, copied);

        DataDirRefused e = assertThrows(DataDirRefused.class, () -> DataDir.open(root, false));
        assertTrue(e.getMessage().contains("decisions/" + copied.getFileName() + " is not listed in the manifest"), e.getMessage());

        DataDir.open(root, true).close();
        assertFalse(Files.exists(copied));
        try (Stream<Path> aside = Files.walk(root.resolve("set-aside"))) {
            assertTrue(aside.anyMatch(p -> p.getFileName().equals(copied.getFileName())), "set aside, not deleted");
        }
    }

    @Test
    void aDamagedCompleteFileIsFoundByVerifyAndAnAlteredOneRefusedAtStart() throws Exception {
        write(root, 2);
        Path logFile = only(root.resolve("decisions"), "decisions-");
        byte[] b = Files.readAllBytes(logFile);
        b[20] ^= 0x01;
        Files.write(logFile, b);
        Verify.Report damaged = Verify.check(root);
        assertTrue(damaged.problems().stream().anyMatch(p -> p.contains("CRC32C")), damaged.problems().toString());

        Files.write(logFile, "{}\n".getBytes(), StandardOpenOption.APPEND);
        DataDirRefused e = assertThrows(DataDirRefused.class, () -> DataDir.open(root, false));
        assertTrue(e.getMessage().contains("but it was complete at " + b.length), e.getMessage());
    }

    @Test
    void aDeletedManifestIsRefusedUnlessTheLossIsAccepted() throws Exception {
        write(root, 2);
        Files.delete(root.resolve("manifest.json"));
        DataDirRefused e = assertThrows(DataDirRefused.class, () -> DataDir.open(root, false));
        assertTrue(e.getMessage().contains("manifest.json is missing"), e.getMessage());
        DataDir.open(root, true).close();
        assertTrue(Verify.check(root).ok(), Verify.check(root).problems().toString());
    }

    @Test
    void aDirectoryOfThePreviousVersionIsUpgradedInPlaceAndReadTheSame() throws Exception {
        // Given what format 1 wrote: no manifest, no checksums, a log file with a torn last line
        Path state = Files.createDirectories(root.resolve("state"));
        Files.writeString(state.resolve("snapshot-1.jsonl"), "{\"snapshot\":1,\"covered\":1,\"taken_at\":\"2026-11-01T00:00:00Z\","
                + "\"log_files\":[]}\n{\"store\":\"notes\",\"id\":\"a\",\"version\":1,\"changed_at\":\"2026-11-01T00:00:00Z\","
                + "\"value\":\"old\"}\n");
        Files.writeString(state.resolve("journal-1.jsonl"), "{\"store\":\"notes\",\"id\":\"b\",\"version\":2,"
                + "\"changed_at\":\"2026-11-01T00:00:00Z\",\"value\":\"journalled\"}\n");
        Path log = Files.createDirectories(root.resolve("decisions")).resolve("decisions-20261101T000000Z-1-000001.jsonl");
        Files.writeString(log, Json.write(record("d1", "a", 3, "moved").toJson()) + "\n{\"decision_id\":\"torn");

        // When a server opens it
        DataDir data = DataDir.open(root, false);
        assertTrue(data.upgraded());
        DecisionLog decisions = new DecisionLog(root.resolve("decisions"), FsyncPolicy.INTERVAL, 100, Disk.REAL,
                new Storage(Disk.REAL), data.registry());
        LocalState s = LocalState.open(config(), List.of(SPEC), state, decisions, FsyncPolicy.INTERVAL,
                Writing.of(data, Disk.REAL, new Storage(Disk.REAL)), data.upgraded());

        // Then it reads what format 1 wrote, the log's torn line cut, and writes its state anew with checksums
        StateStore<String> notes = s.stores().named("notes");
        assertEquals("moved", notes.get("a").orElseThrow().value());
        assertEquals("journalled", notes.get("b").orElseThrow().value());
        s.close();
        decisions.close();
        data.close();
        assertFalse(Files.readString(log).contains("torn"));
        Verify.Report after = Verify.check(root);
        assertTrue(after.ok(), after.problems().toString());
        assertFalse(Files.exists(state.resolve("snapshot-1.jsonl")), "the format-1 snapshot was replaced");
    }

    /** A server's worth of writes: {@code n} state changes through the log, a clean stop. */
    private static void write(Path root, int n) throws IOException {
        try (DataDir data = DataDir.open(root, false)) {
            Storage storage = new Storage(Disk.REAL);
            DecisionLog log = new DecisionLog(root.resolve("decisions"), FsyncPolicy.INTERVAL, 100, Disk.REAL, storage,
                    data.registry());
            LocalState s = LocalState.open(config(), List.of(SPEC), root.resolve("state"), log, FsyncPolicy.INTERVAL,
                    Writing.of(data, Disk.REAL, storage), false);
            StateStore<String> notes = s.stores().named("notes");
            for (int i = 0; i < n; i++) {
                notes.create("n" + i, "note " + i);
                long v = notes.get("n" + i).orElseThrow().version();
                int at = i;
                notes.compareAndSet("n" + i, v, "moved " + i, after -> log.awaitDurable(log.append(record("d" + at, "n" + at,
                        after.version(), "moved " + at))));
            }
            log.close();
            s.close();
        }
    }

    private static DecisionRecord record(String id, String key, long version, String value) {
        return new DecisionRecord(id, "2026-11-01T00:00:00Z", "notes", "/v1/notes", "sha256:x", Json.object().put("k", key),
                Json.object().put("rule", "r"), null, Json.object().put("store", "notes").put("id", key).put("version", version)
                        .put("value", value));
    }

    private static StateConfig config() {
        return StateConfig.defaults();
    }

    private static Path only(Path dir, String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix) && !p.toString().endsWith(".gz")).findFirst()
                    .orElseThrow();
        }
    }
}
