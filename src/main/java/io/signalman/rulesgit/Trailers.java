package io.signalman.rulesgit;

/**
 * Text that goes into a commit message. A value is hostile (a note, a user name from an identity
 * provider): it must not add a line, or end the paragraph the trailers are read from.
 */
final class Trailers {

    private Trailers() {
    }

    /** {@code s} on one line: every control or format character (a line break too) becomes a space, runs of spaces one. */
    static String oneLine(String s) {
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                || c == 0x2028 || c == 0x2029 ? ' ' : c));
        return b.toString().replaceAll(" {2,}", " ").strip();
    }

    /**
     * A note as a commit message's body: lines kept, line ends made {@code \n}, other control
     * characters (NUL, which Git refuses in a message, among them) taken out, trailing spaces cut.
     */
    static String body(String note) {
        StringBuilder out = new StringBuilder();
        for (String line : note.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1)) {
            StringBuilder b = new StringBuilder();
            line.codePoints().filter(c -> c == '\t' || !Character.isISOControl(c)).forEach(b::appendCodePoint);
            out.append(b.toString().stripTrailing()).append('\n');
        }
        String s = out.toString().strip();
        return s.isEmpty() ? "(no note)" : s;
    }
}
