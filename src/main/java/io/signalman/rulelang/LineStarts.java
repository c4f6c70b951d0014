package io.signalman.rulelang;

import java.util.Arrays;

/**
 * Where each line of a text starts, read once, so that finding the line of every rule in a file of
 * a thousand rules reads the file once rather than once per rule.
 */
public final class LineStarts {

    private final int[] starts;

    private LineStarts(int[] starts) {
        this.starts = starts;
    }

    public static LineStarts of(String text) {
        int n = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                n++;
            }
        }
        int[] starts = new int[n];
        for (int i = 0, line = 1; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                starts[line++] = i + 1;
            }
        }
        return new LineStarts(starts);
    }

    /** The offset where the 1-based {@code line} starts (the first or last line when out of range). */
    public int offset(int line) {
        return starts[Math.min(Math.max(line, 1), starts.length) - 1];
    }

    /** The 1-based line that holds {@code offset}. */
    public int lineOf(int offset) {
        int i = Arrays.binarySearch(starts, offset);
        return i >= 0 ? i + 1 : -i - 1;
    }

    /** How many lines the text has. */
    public int lines() {
        return starts.length;
    }
}
