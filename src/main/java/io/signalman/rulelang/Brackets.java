package io.signalman.rulelang;

import java.util.Deque;
import java.util.List;

/**
 * Counts brackets over lines of DRL or Java, skipping text literals and comments, to say where
 * one is missing. Used only after a parser has refused the text, to place its error.
 */
final class Brackets {

    private Brackets() {
    }

    /**
     * Scans lines {@code from..to} (1-based, inclusive), pushing each open bracket as
     * {@code {line, column, char}} on {@code open}; returns a finding for a closing bracket with
     * nothing to close, else null.
     */
    static Finding scan(List<String> lines, int from, int to, Deque<int[]> open) {
        boolean block = false;
        for (int n = from; n <= to && n <= lines.size(); n++) {
            String l = lines.get(n - 1);
            char quote = 0;
            for (int i = 0; i < l.length(); i++) {
                char c = l.charAt(i);
                if (block) {
                    if (c == '*' && i + 1 < l.length() && l.charAt(i + 1) == '/') {
                        block = false;
                        i++;
                    }
                } else if (quote != 0) {
                    if (c == '\\') {
                        i++;
                    } else if (c == quote) {
                        quote = 0;
                    }
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '/' && i + 1 < l.length() && l.charAt(i + 1) == '/') {
                    break;
                } else if (c == '/' && i + 1 < l.length() && l.charAt(i + 1) == '*') {
                    block = true;
                    i++;
                } else if (c == '(' || c == '[' || c == '{') {
                    open.push(new int[] {n, i + 1, c});
                } else if (c == ')' || c == ']' || c == '}') {
                    char want = c == ')' ? '(' : c == ']' ? '[' : '{';
                    if (open.isEmpty() || open.peek()[2] != want) {
                        return new Finding(n, i + 1, "one \"" + c + "\" too many here: it closes nothing");
                    }
                    open.pop();
                }
            }
        }
        return null;
    }
}
