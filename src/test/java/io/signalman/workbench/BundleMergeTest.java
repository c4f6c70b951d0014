package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.engine.BundleFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole bundles merged file by file: nothing either side wrote is lost. */
class BundleMergeTest {

    @TempDir
    Path dir;

    private BundleFiles bundle(String name, Map<String, String> files) throws Exception {
        Path root = dir.resolve(name);
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = root.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        Files.createDirectories(root);
        return BundleFiles.read(root);
    }

    @Test
    void eachFileTakesTheSideThatChangedItAndARemovalAgainstAChangeKeepsTheText() throws Exception {
        BundleFiles base = bundle("base", Map.of("broker/a.drl", "a\n", "broker/b.drl", "b\n", "broker/c.json", "{}\n"));
        BundleFiles ours = bundle("ours", Map.of("broker/a.drl", "A\n", "broker/b.drl", "b\n", "broker/new.drl", "n\n"));
        BundleFiles theirs = bundle("theirs", Map.of("broker/a.drl", "a\n", "broker/b.drl", "B\n", "broker/c.json", "{\"x\": 1}\n"));

        BundleMerge.Result r = BundleMerge.merge(base, ours, theirs, Rebase.LABELS);

        assertEquals("A\n", text(r, "broker/a.drl"));
        assertEquals("B\n", text(r, "broker/b.drl"));
        assertEquals("n\n", text(r, "broker/new.drl"));
        // ours removed c.json, theirs changed it: the text stays, between markers, as a conflict at line 1
        assertTrue(text(r, "broker/c.json").contains("{\"x\": 1}"), text(r, "broker/c.json"));
        assertEquals(List.of(new BundleMerge.Conflict("broker/c.json", 1, r.conflicts().get(0).message())), r.conflicts());
        assertEquals(List.of("broker/a.drl", "broker/c.json", "broker/new.drl"), r.changed());
        assertFalse(r.files().containsKey("broker/gone.drl"));
    }

    private static String text(BundleMerge.Result r, String path) {
        return new String(r.files().get(path), StandardCharsets.UTF_8);
    }
}
