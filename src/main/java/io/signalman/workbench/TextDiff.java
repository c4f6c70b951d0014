package io.signalman.workbench;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff of two versions of a rule file, for the activation record and the page: lines kept
 * ({@code ' '}), removed ({@code '-'}) and added ({@code '+'}), with {@link #CONTEXT} kept lines
 * around each change. Longest common subsequence over lines, after trimming the common head and
 * tail, which is all of a file but the edited rule in practice.
 */
final class TextDiff {

    static final int CONTEXT = 2;
    /** Past this many cells of the LCS table, the changed middle is shown as removed then added. */
    private static final long MAX_CELLS = 4_000_000;

    private TextDiff() {
    }

    static String unified(String before, String after) {
        String[] a = lines(before);
        String[] b = lines(after);
        int head = 0;
        while (head < a.length && head < b.length && a[head].equals(b[head])) {
            head++;
        }
        int tail = 0;
        while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail].equals(b[b.length - 1 - tail])) {
            tail++;
        }
        List<String> ops = new ArrayList<>();
        for (int i = 0; i < head; i++) {
            ops.add(" " + a[i]);
        }
        middle(a, head, a.length - tail, b, head, b.length - tail, ops);
        for (int i = a.length - tail; i < a.length; i++) {
            ops.add(" " + a[i]);
        }
        return withContext(ops);
    }

    /** An empty file has no lines (not one empty line). */
    private static String[] lines(String text) {
        return text.isEmpty() ? new String[0] : text.split("\n", -1);
    }

    private static void middle(String[] a, int a0, int a1, String[] b, int b0, int b1, List<String> ops) {
        int n = a1 - a0;
        int m = b1 - b0;
        if ((long) n * m > MAX_CELLS) {
            for (int i = a0; i < a1; i++) {
                ops.add("-" + a[i]);
            }
            for (int j = b0; j < b1; j++) {
                ops.add("+" + b[j]);
            }
            return;
        }
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a[a0 + i].equals(b[b0 + j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[a0 + i].equals(b[b0 + j])) {
                ops.add(" " + a[a0 + i++]);
                j++;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.add("-" + a[a0 + i++]);
            } else {
                ops.add("+" + b[b0 + j++]);
            }
        }
    }

    /** Keeps changed lines and {@link #CONTEXT} lines around them; "..." marks what is left out. */
    private static String withContext(List<String> ops) {
        boolean[] keep = new boolean[ops.size()];
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).charAt(0) != ' ') {
                for (int k = Math.max(0, i - CONTEXT); k <= Math.min(ops.size() - 1, i + CONTEXT); k++) {
                    keep[k] = true;
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        boolean skipped = false;
        for (int i = 0; i < ops.size(); i++) {
            if (keep[i]) {
                sb.append(ops.get(i)).append('\n');
                skipped = false;
            } else if (!skipped) {
                sb.append("...\n");
                skipped = true;
            }
        }
        return sb.toString();
    }
}
