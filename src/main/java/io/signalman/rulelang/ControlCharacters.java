package io.signalman.rulelang;

import java.util.ArrayList;
import java.util.List;

/**
 * Control characters in the text of a rule bundle. Text is what people read and approve, so it
 * holds nothing a screen hides and a program reads: no NUL or other C0 control but tab and the
 * line breaks, no DEL, no C1 control. A NUL in a README once let a rule file hide inside it
 * (issue 38); a rule file refuses them too ({@link SourceText}, with stricter line breaks).
 */
public final class ControlCharacters {

    /** Findings kept per file: one is enough to act on, a few show whether the file is text at all. */
    static final int MAX_FINDINGS = 5;

    private ControlCharacters() {
    }

    /** Why {@code c} may not appear in a bundle's text, or null when it may. */
    static String why(char c) {
        if (c == '\t' || c == '\n' || c == '\r') {
            return null;
        }
        if (c < 0x20 || c == 0x7f || c >= 0x80 && c <= 0x9f) {
            return "a control character (U+" + String.format("%04X", (int) c) + ") is not accepted in the text of a rule "
                    + "bundle (tab and line breaks are): delete it";
        }
        return null;
    }

    /**
     * The first control character of each line that holds one, at its 1-based line and column
     * (lines end at {@code \n}), at most {@link #MAX_FINDINGS}; empty when the text is clean.
     */
    public static List<Finding> in(String text) {
        List<Finding> out = new ArrayList<>();
        int line = 1;
        int lineStart = 0;
        boolean found = false;
        for (int i = 0; i < text.length() && out.size() < MAX_FINDINGS; i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                lineStart = i + 1;
                found = false;
                continue;
            }
            String why = found ? null : why(c);
            if (why != null) {
                out.add(new Finding(line, i - lineStart + 1, why));
                found = true;
            }
        }
        return out;
    }
}
