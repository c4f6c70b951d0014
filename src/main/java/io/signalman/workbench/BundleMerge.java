package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleFiles;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A three-way merge of whole bundles, file by file, for a rebase (a draft's own changes onto the
 * live rules) and a revert (the undoing of one activation onto the live rules). A file only one
 * side changed takes that side; a file both changed is merged line by line ({@link LineMerge});
 * a file one side removed while the other changed it keeps the changed text between conflict
 * markers, so nothing is lost and the analyst decides. Conflicts are reported at their line.
 */
final class BundleMerge {

    /** A conflict in the merged files: where its opening marker is, and what it is about. */
    record Conflict(String file, int line, String message) {
    }

    /**
     * @param files     the merged bundle: path to bytes, in path order
     * @param changed   the files that differ from {@code theirs} (what the draft now changes)
     * @param conflicts every conflict, by file and line
     */
    record Result(Map<String, byte[]> files, List<String> changed, List<Conflict> conflicts) {

        ArrayNode conflictsJson() {
            ArrayNode a = Json.array();
            conflicts.forEach(c -> a.addObject().put("file", c.file()).put("line", c.line()).put("message", c.message()));
            return a;
        }
    }

    /** The names the conflict markers carry: which side is which, in the analyst's words. */
    record Labels(String ours, String theirs) {
    }

    private BundleMerge() {
    }

    static Result merge(BundleFiles base, BundleFiles ours, BundleFiles theirs, Labels labels) {
        TreeSet<String> paths = new TreeSet<>();
        paths.addAll(base.paths());
        paths.addAll(ours.paths());
        paths.addAll(theirs.paths());
        Map<String, byte[]> out = new TreeMap<>();
        List<String> changed = new ArrayList<>();
        List<Conflict> conflicts = new ArrayList<>();
        for (String p : paths) {
            byte[] b = base.bytes(p);
            byte[] o = ours.bytes(p);
            byte[] t = theirs.bytes(p);
            byte[] merged;
            if (Arrays.equals(o, b) || Arrays.equals(o, t)) {
                merged = t;
            } else if (Arrays.equals(t, b)) {
                merged = o;
            } else if (o == null || t == null) {
                // One side removed the file, the other changed it: keep the text, say so at line 1.
                String kept = text(o == null ? t : o);
                String who = o == null ? labels.ours() : labels.theirs();
                merged = bytes(LineMerge.OPEN + labels.theirs() + "\n" + (t == null ? "" : kept + "\n") + LineMerge.MIDDLE + "\n"
                        + (o == null ? "" : kept + "\n") + LineMerge.CLOSE + labels.ours() + "\n");
                conflicts.add(new Conflict(p, 1, who + " removes this file, which the other side changed: keep the text "
                        + "(delete the markers) or remove the file"));
            } else {
                LineMerge.Result r = LineMerge.merge(LineMerge.lines(text(b == null ? new byte[0] : b)), LineMerge.lines(text(o)),
                        LineMerge.lines(text(t)), labels.ours(), labels.theirs());
                merged = bytes(r.text());
                r.conflicts().forEach(line -> conflicts.add(new Conflict(p, line, "both " + labels.theirs() + " and "
                        + labels.ours() + " changed these lines: keep one side, or both, then delete the markers")));
            }
            if (merged != null) {
                out.put(p, merged);
            }
            if (!Arrays.equals(merged, t)) {
                changed.add(p);
            }
        }
        return new Result(out, changed, conflicts);
    }

    /** The merge as the API reports it: which files the result changes, and its conflicts. */
    static ObjectNode toJson(Result r) {
        ObjectNode n = Json.object();
        r.changed().forEach(n.putArray("changed_files")::add);
        n.set("conflicts", r.conflictsJson());
        return n;
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
