package io.signalman.rulelang;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.drools.drl.parser.DroolsError;

/**
 * Drools' syntax errors, placed and worded for an analyst. The parser notices a missing
 * {@code )} only where the next element starts (often the {@code then} line); the brackets of
 * the rule up to there are counted, so the error names the line that lacks it.
 */
final class DrlSyntax {

    private DrlSyntax() {
    }

    static List<Finding> explain(String text, List<DroolsError> errors) {
        List<String> lines = text.lines().toList();
        List<Finding> out = new ArrayList<>();
        for (DroolsError e : errors) {
            int line = e.getLines().length > 0 ? e.getLines()[0] : 0;
            Finding bracket = line > 0 ? unclosed(lines, line) : null;
            Finding f = bracket != null ? bracket : new Finding(line, 0, reword(e.getMessage()));
            if (!out.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * A bracket left open between the start of the rule holding {@code errorLine} and that line,
     * reported on the last line with text before it; null when the brackets balance.
     */
    static Finding unclosed(List<String> lines, int errorLine) {
        int from = errorLine - 1;
        while (from > 0 && !lines.get(from - 1).strip().startsWith("rule ")) {
            from--;
        }
        Deque<int[]> open = new ArrayDeque<>();
        Finding extra = Brackets.scan(lines, Math.max(from, 1), errorLine - 1, open);
        if (extra != null) {
            return extra;
        }
        if (open.isEmpty()) {
            return null;
        }
        int[] at = open.peek();
        int missing = errorLine - 1;
        while (missing > at[0] && lines.get(missing - 1).isBlank()) {
            missing--;
        }
        char close = at[2] == '(' ? ')' : at[2] == '[' ? ']' : '}';
        return new Finding(Math.max(missing, at[0]), 0, "a \"" + close + "\" is missing here: the \"" + (char) at[2]
                + "\" opened on line " + at[0] + " is never closed");
    }

    /** {@code [ERR 102] Line 11:0 mismatched input 'then' in rule "a"} as {@code unexpected "then" in rule "a"}. */
    private static String reword(String message) {
        String m = Syntax.plain(message);
        int bracket = m.indexOf("] Line ");
        if (m.startsWith("[ERR") && bracket > 0) {
            int space = m.indexOf(' ', bracket + 7);
            m = space < 0 ? m : m.substring(space + 1);
        }
        return m.replace("mismatched input", "unexpected").replace("no viable alternative at input", "cannot read");
    }
}
