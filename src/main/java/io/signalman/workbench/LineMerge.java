package io.signalman.workbench;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A three-way merge of one text file, line by line (diff3): the changes from {@code base} to
 * {@code ours} and from {@code base} to {@code theirs} (each found by java-diff-utils' Myers diff)
 * are applied together. Where both sides changed the same lines of the base differently, both
 * versions are kept between conflict markers, so that nothing either side wrote is lost and the
 * analyst decides at that line. Changes that only touch (one ends where the other starts) are not
 * a conflict: two rules edited one after the other merge cleanly.
 */
final class LineMerge {

    static final String OPEN = "<<<<<<< ";
    static final String MIDDLE = "=======";
    static final String CLOSE = ">>>>>>> ";

    /**
     * @param lines     the merged file, line by line
     * @param conflicts the 1-based line of each conflict's opening marker in {@code lines}
     */
    record Result(List<String> lines, List<Integer> conflicts) {

        String text() {
            return String.join("\n", lines);
        }
    }

    /** One side's change: base lines {@code [start, end)} become {@code lines} (an insert has start == end). */
    private record Hunk(int side, int start, int end, List<String> lines) {
    }

    private LineMerge() {
    }

    /** Lines of a text as the merge reads them; a final newline is an empty last line, so it survives. */
    static List<String> lines(String text) {
        return List.of(text.split("\n", -1));
    }

    /**
     * Merges {@code ours} and {@code theirs}, both edited from {@code base}; a conflict shows
     * {@code theirs} first (under {@code theirsLabel}), then {@code ours}.
     */
    static Result merge(List<String> base, List<String> ours, List<String> theirs, String oursLabel, String theirsLabel) {
        List<Hunk> hunks = new ArrayList<>();
        hunks.addAll(hunks(0, base, ours));
        hunks.addAll(hunks(1, base, theirs));
        hunks.sort(Comparator.comparingInt(Hunk::start).thenComparingInt(Hunk::end));
        List<String> out = new ArrayList<>();
        List<Integer> conflicts = new ArrayList<>();
        int at = 0;
        int i = 0;
        while (i < hunks.size()) {
            // A cluster: hunks whose base ranges overlap, from one side or both.
            List<Hunk> cluster = new ArrayList<>(List.of(hunks.get(i)));
            int start = hunks.get(i).start();
            int end = hunks.get(i).end();
            for (i++; i < hunks.size() && overlaps(hunks.get(i), start, end); i++) {
                cluster.add(hunks.get(i));
                end = Math.max(end, hunks.get(i).end());
            }
            out.addAll(base.subList(at, start));
            List<String> mine = apply(base, start, end, cluster, 0);
            List<String> yours = apply(base, start, end, cluster, 1);
            boolean oneSide = cluster.stream().allMatch(h -> h.side() == cluster.get(0).side());
            if (oneSide) {
                out.addAll(cluster.get(0).side() == 0 ? mine : yours);
            } else if (mine.equals(yours)) {
                out.addAll(mine);
            } else {
                conflicts.add(out.size() + 1);
                out.add(OPEN + theirsLabel);
                out.addAll(yours);
                out.add(MIDDLE);
                out.addAll(mine);
                out.add(CLOSE + oursLabel);
            }
            at = end;
        }
        out.addAll(base.subList(at, base.size()));
        return new Result(out, conflicts);
    }

    /**
     * Whether a hunk overlaps a cluster's base range {@code [start, end)}: it starts inside it, or
     * at the same line (two inserts at one place, or an insert just before a changed line, cannot
     * be ordered without the analyst).
     */
    private static boolean overlaps(Hunk h, int start, int end) {
        return h.start() < end || h.start() == start;
    }

    /** The base lines {@code [start, end)} with one side's hunks of the cluster applied. */
    private static List<String> apply(List<String> base, int start, int end, List<Hunk> cluster, int side) {
        List<String> out = new ArrayList<>();
        int at = start;
        for (Hunk h : cluster) {
            if (h.side() != side) {
                continue;
            }
            out.addAll(base.subList(at, h.start()));
            out.addAll(h.lines());
            at = h.end();
        }
        out.addAll(base.subList(at, end));
        return out;
    }

    private static List<Hunk> hunks(int side, List<String> base, List<String> revised) {
        List<Hunk> out = new ArrayList<>();
        for (AbstractDelta<String> d : DiffUtils.diff(base, revised).getDeltas()) {
            int start = d.getSource().getPosition();
            out.add(new Hunk(side, start, start + d.getSource().size(), List.copyOf(d.getTarget().getLines())));
        }
        return out;
    }

    /** The 1-based lines where a file still holds a conflict's opening marker. */
    static List<Integer> unresolved(String text) {
        List<Integer> at = new ArrayList<>();
        List<String> lines = lines(text);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(OPEN)) {
                at.add(i + 1);
            }
        }
        return at;
    }
}
