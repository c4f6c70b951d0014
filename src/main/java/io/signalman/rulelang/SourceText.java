package io.signalman.rulelang;

import java.util.ArrayList;
import java.util.List;

/**
 * The first look at a rule file, before any parser: text that could mean one thing to the rule
 * checker and another to the Java compiler behind Drools' executable model is refused here, at
 * its line and column, so that what the checker judges is exactly what gets compiled.
 *
 * <p>Java translates {@code \}{@code uXXXX} escapes (with any number of {@code u}s) before it
 * reads anything, in comments and strings alike; Drools' DRL parser and JavaParser do not. So
 * {@code // \}{@code u000a code} is a comment to the checker and a statement to the compiler,
 * and an escaped quote ends a text the checker thought still open. No escape of that kind is
 * accepted anywhere in a rule file: the analyst types the character itself. For the same
 * reason the file may not hold text in single quotes (Drools turns {@code 'a"b'} into Java text
 * in double quotes without escaping what is inside), text blocks, line breaks inside a text,
 * control characters, or the invisible characters that make code read differently on screen
 * than to a compiler (bidirectional overrides, the Unicode line separators, a byte-order mark).
 */
final class SourceText {

    private SourceText() {
    }

    /** Every such problem in the file, in order; empty when the text reads the same to every reader. */
    static List<Finding> check(String text) {
        List<Finding> out = new ArrayList<>();
        int line = 1;
        int lineStart = 0;
        boolean lineComment = false;
        boolean blockComment = false;
        boolean inText = false;
        int depth = 0;
        boolean tooDeep = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int column = i - lineStart + 1;
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) == 'u') {
                out.add(new Finding(line, column, "\\" + "u escapes are not accepted in a rule file (the Java compiler "
                        + "reads them before anything else, in comments and text alike): type the character itself"));
            }
            String invisible = invisible(c, i + 1 < text.length() ? text.charAt(i + 1) : 0);
            if (invisible != null) {
                out.add(new Finding(line, column, invisible));
            }
            if (c == '\n' || c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n')) {
                if (inText) {
                    out.add(new Finding(line, column, "a text in double quotes must end on the line it starts on"));
                    inText = false;
                }
                lineComment = false;
                line++;
                lineStart = i + 1;
                continue;
            }
            if (lineComment || c == '\r') {
                continue;
            }
            if (blockComment) {
                if (c == '*' && i + 1 < text.length() && text.charAt(i + 1) == '/') {
                    blockComment = false;
                    i++;
                }
                continue;
            }
            if (inText) {
                char next = i + 1 < text.length() ? text.charAt(i + 1) : '\n';
                if (c == '\\' && next != '\n' && next != '\r') {
                    i++; // the escaped character belongs to the text
                } else if (c == '"') {
                    inText = false;
                }
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                depth++;
                if (depth > TextBounds.MAX_DEPTH && !tooDeep) {
                    tooDeep = true; // one finding per region nested too deep, not one per bracket in it
                    out.add(new Finding(line, column, TextBounds.tooDeep()));
                }
            } else if (c == ')' || c == ']' || c == '}') {
                depth = Math.max(0, depth - 1);
                tooDeep &= depth > TextBounds.MAX_DEPTH;
            } else if (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '/') {
                lineComment = true;
            } else if (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '*') {
                blockComment = true;
                i++;
            } else if (c == '"') {
                if (text.startsWith("\"\"\"", i)) {
                    out.add(new Finding(line, column, "text blocks (\"\"\") are not part of the rule language: write text "
                            + "in double quotes on one line"));
                    i += 2;
                } else {
                    inText = true;
                }
            } else if (c == '\'') {
                out.add(new Finding(line, column, "text in single quotes is not part of the rule language: write it in "
                        + "double quotes (\"...\")"));
                int end = text.indexOf('\'', i + 1);
                int eol = text.indexOf('\n', i + 1);
                i = end < 0 || eol >= 0 && end > eol ? i : end; // one finding per quoted text
            }
        }
        return out;
    }

    /** Why {@code c} may not appear in a rule file, or null when it may. */
    private static String invisible(char c, char next) {
        if (c == '\t' || c == '\n' || c == '\r' && next == '\n') {
            return null;
        }
        if (c == '\r') {
            return "a line break is \\n or \\r\\n; a lone \\r ends a line for the Java compiler but not for every "
                    + "other reader: save the file with ordinary line breaks";
        }
        String control = ControlCharacters.why(c);
        if (control != null) {
            return control;
        }
        if (c == '\u2028' || c == '\u2029') {
            return "a Unicode line or paragraph separator (U+" + String.format("%04X", (int) c) + ") reads as a line "
                    + "break to some readers and not to others: use an ordinary line break";
        }
        if (c >= '\u202a' && c <= '\u202e' || c >= '\u2066' && c <= '\u2069' || c == '\u200e' || c == '\u200f'
                || c == '\u061c') {
            return "an invisible direction mark (U+" + String.format("%04X", (int) c) + ") makes the text show on screen "
                    + "in another order than the compiler reads it: delete it";
        }
        if (c == '\ufeff') {
            return "a byte-order mark (U+FEFF) is not accepted in a rule file: save it as UTF-8 without one";
        }
        return null;
    }
}
