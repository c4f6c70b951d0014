package io.signalman.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.control.DraftStore.Draft;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control plane's stores, on one node and as the cluster holds them: a change lands only on what it was made to. */
class ControlStoreTest {

    @TempDir
    Path dir;

    @Test
    void aSaveOfAnOldVersionIsRefusedOnOneNodeAndInTheCluster() {
        for (DraftStore store : List.of(new FileDraftStore(dir), new SharedDraftStore(new MemoryDocuments()))) {
            Draft v1 = draft(1, "broker/a.drl", "rule one");
            assertTrue(store.create("0123456789abcdef", v1));
            assertFalse(store.create("0123456789abcdef", v1), "an id is taken once");
            Draft v2 = draft(2, "broker/a.drl", "rule two");
            assertTrue(store.replace("0123456789abcdef", v1, v2));
            // Another save made to version 1 (two people, or two nodes) does not land over version 2
            assertFalse(store.replace("0123456789abcdef", v1, draft(2, "broker/a.drl", "rule three")), store.getClass().getName());
            Draft now = store.get("0123456789abcdef");
            assertEquals(2, now.version());
            assertArrayEquals("rule two".getBytes(StandardCharsets.UTF_8), now.files().get("broker/a.drl"));
            // A file the new version no longer holds is gone
            Draft v3 = new Draft(Json.object().put("version", 3), new TreeMap<>(Map.of("broker/b.drl", new byte[] {'b'})));
            assertTrue(store.replace("0123456789abcdef", now, v3));
            assertEquals(List.of("broker/b.drl"), new ArrayList<>(store.get("0123456789abcdef").files().keySet()));
            assertEquals(List.of("0123456789abcdef"), store.ids());
            store.delete("0123456789abcdef");
            assertNull(store.get("0123456789abcdef"));
        }
    }

    @Test
    void aJournalTakesEachEntryOnceInOrderAndReadsItBackAfterARestart() {
        Path file = dir.resolve("activations.jsonl");
        FileJournal j = FileJournal.open(file, Writing.plain());
        assertTrue(j.append(1, "{\"seq\":1}"));
        assertFalse(j.append(1, "{\"seq\":1,\"again\":true}"), "entry 1 is taken");
        assertFalse(j.append(3, "{\"seq\":3}"), "no gap");
        assertTrue(j.append(2, "{\"seq\":2}"));
        j.close();
        FileJournal again = FileJournal.open(file, Writing.plain());
        assertEquals(2, again.size());
        assertEquals("{\"seq\":2}", again.get(2));
        assertNull(again.get(3));
        again.close();
    }

    @Test
    void aKeptRevisionIsReadBackWholeFromEitherStore() throws Exception {
        Map<String, byte[]> files = Map.of("broker/a.drl", "a".getBytes(StandardCharsets.UTF_8), "fsm/m.drl", new byte[] {1, 2});
        String rev = "sha256:" + "ab".repeat(32);
        for (RevisionStore store : List.of(new FileRevisionStore(dir), new SharedRevisionStore(new MemoryDocuments()))) {
            assertFalse(store.has(rev));
            store.keep(rev, files);
            store.keep(rev, Map.of("other.drl", new byte[] {9}));
            assertTrue(store.has(rev));
            Map<String, byte[]> back = store.read(rev);
            assertEquals(files.keySet(), back.keySet(), "kept once: a second keep of one revision changes nothing");
            assertArrayEquals(new byte[] {1, 2}, back.get("fsm/m.drl"));
        }
        assertFalse(Files.list(dir.resolve("workbench").resolve("revisions")).anyMatch(p -> p.getFileName().toString().startsWith(".")),
                "no temporary folder left behind");
    }

    private static Draft draft(long version, String path, String text) {
        return new Draft(Json.object().put("version", version), new TreeMap<>(Map.of(path, text.getBytes(StandardCharsets.UTF_8))));
    }

    /** Documents in memory with the cluster map's compare-and-set. */
    static final class MemoryDocuments implements Documents {

        private final Map<String, String> map = new ConcurrentHashMap<>();

        @Override
        public String get(String key) {
            return map.get(key);
        }

        @Override
        public boolean create(String key, String value) {
            return map.putIfAbsent(key, value) == null;
        }

        @Override
        public boolean replace(String key, String expected, String next) {
            return map.replace(key, expected, next);
        }

        @Override
        public void remove(String key) {
            map.remove(key);
        }

        @Override
        public List<String> keys() {
            return map.keySet().stream().sorted().toList();
        }
    }
}
