package io.signalman.rulelang;

/**
 * How large a pattern RE2 accepted is once compiled: RE2 matches in time linear in the text, but
 * the factor is the size of the compiled program, and a repetition count compiles into that many
 * copies of what it repeats, so {@code (.*){1000}z} is a thousand-fold program that took about
 * 4 s per 64 KiB text (59 µs a character, against 26 ns for {@code trade\..*}).
 *
 * <p>An estimate read from the pattern's text, which RE2 has already accepted: each literal, class,
 * {@code .} or anchor counts one, a group the sum of its alternatives, and a repetition multiplies
 * what it repeats by its largest count. It errs on the large side ({@code \Q...\E} counts its
 * braces as repetitions if they look like one), which can only refuse a pattern, never admit one.
 *
 * @param size      the estimated number of instructions of the compiled program
 * @param maxRepeat the largest count of any repetition ({@code a{n,m}}), 1 when there is none
 */
public record RegexSize(long size, int maxRepeat) {

    /** The estimate for a pattern RE2 accepts. */
    public static RegexSize of(String regex) {
        Reader r = new Reader(regex);
        long size = r.alternatives();
        return new RegexSize(Math.max(1, size), r.maxRepeat);
    }

    /** Why the pattern is too large for a rule, in an analyst's words; null when it is not. */
    public String problem() {
        if (maxRepeat > TextBounds.MAX_REPEAT) {
            return "it repeats something " + maxRepeat + " times; a repetition may count at most " + TextBounds.MAX_REPEAT
                    + " (matching costs time in proportion to the pattern's size, and each repetition is a copy)";
        }
        if (size > TextBounds.MAX_PATTERN_SIZE) {
            return "it compiles to about " + String.format("%,d", size) + " steps per character, more than the " + TextBounds.MAX_PATTERN_SIZE
                    + " a pattern may take (matching costs time in proportion to that size): write a shorter pattern";
        }
        return null;
    }

    /** A recursive reader of RE2's syntax that only counts. */
    private static final class Reader {
        private final String p;
        private int i;
        private int maxRepeat = 1;

        Reader(String p) {
            this.p = p;
        }

        /** {@code a|b|c} up to the end or a closing parenthesis. */
        long alternatives() {
            long total = sequence();
            while (i < p.length() && p.charAt(i) == '|') {
                i++;
                total = add(total + 1, sequence());
            }
            return total;
        }

        private long sequence() {
            long total = 0;
            while (i < p.length() && p.charAt(i) != '|' && p.charAt(i) != ')') {
                long atom = atom();
                total = add(total, repeated(atom));
            }
            return total;
        }

        private long atom() {
            char c = p.charAt(i++);
            if (c == '(') {
                if (i < p.length() && p.charAt(i) == '?') {
                    // (?:...), (?P<name>...), (?i) and (?i:...): skip to the group's body or its end
                    while (i < p.length() && p.charAt(i) != ':' && p.charAt(i) != ')' && p.charAt(i) != '>') {
                        i++;
                    }
                    if (i < p.length() && p.charAt(i) == ')') {
                        i++;
                        return 0; // a flag group holds nothing
                    }
                    i++;
                }
                long inner = alternatives();
                i++; // the closing parenthesis
                return add(inner, 1);
            }
            if (c == '[') {
                skipClass();
                return 1;
            }
            if (c == '\\' && i < p.length()) {
                char e = p.charAt(i++);
                if (e == 'Q') {
                    int end = p.indexOf("\\E", i);
                    int stop = end < 0 ? p.length() : end;
                    long n = stop - i;
                    i = end < 0 ? p.length() : end + 2;
                    return n;
                }
                if ((e == 'p' || e == 'P' || e == 'x') && i < p.length() && p.charAt(i) == '{') {
                    int end = p.indexOf('}', i);
                    i = end < 0 ? p.length() : end + 1;
                }
                return 1;
            }
            return 1;
        }

        /** Past a class {@code [...]}: a leading ] or ^] is a member, as are [:alpha:] and escapes. */
        private void skipClass() {
            if (i < p.length() && p.charAt(i) == '^') {
                i++;
            }
            if (i < p.length() && p.charAt(i) == ']') {
                i++;
            }
            while (i < p.length() && p.charAt(i) != ']') {
                if (p.charAt(i) == '\\') {
                    i++;
                } else if (p.startsWith("[:", i)) {
                    int end = p.indexOf(":]", i + 2);
                    i = end < 0 ? i : end + 1;
                }
                i++;
            }
            i++;
        }

        /** The atom times its repetition's largest count, for each repetition written after it. */
        private long repeated(long atom) {
            long total = atom;
            while (i < p.length()) {
                char c = p.charAt(i);
                int copies = c == '{' ? count() : 0;
                if (c == '*' || c == '+' || c == '?') {
                    i++;
                    total = add(total, 1);
                } else if (copies > 0) {
                    total = mul(total, copies);
                } else {
                    return total;
                }
                if (i < p.length() && p.charAt(i) == '?') {
                    i++; // lazy
                }
            }
            return total;
        }

        /**
         * Reads {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code i} when one is there and returns the
         * count it can copy its atom up to ({@code {n,}} copies n times and loops), moving past it; 0
         * (and not moving) when the brace is a literal.
         */
        private int count() {
            int j = i + 1;
            long n = 0;
            long m = -1;
            int digits = 0;
            while (j < p.length() && Character.isDigit(p.charAt(j))) {
                n = Math.min(n * 10 + (p.charAt(j++) - '0'), Integer.MAX_VALUE);
                digits++;
            }
            if (digits == 0) {
                return 0;
            }
            if (j < p.length() && p.charAt(j) == ',') {
                j++;
                int mDigits = 0;
                long mm = 0;
                while (j < p.length() && Character.isDigit(p.charAt(j))) {
                    mm = Math.min(mm * 10 + (p.charAt(j++) - '0'), Integer.MAX_VALUE);
                    mDigits++;
                }
                m = mDigits == 0 ? n + 1 : mm;
            }
            if (j >= p.length() || p.charAt(j) != '}') {
                return 0;
            }
            i = j + 1;
            int copies = (int) Math.max(1, Math.max(n, m));
            maxRepeat = Math.max(maxRepeat, (int) Math.max(n, m));
            return copies;
        }

        private static long add(long a, long b) {
            long s = a + b;
            return s < 0 ? Long.MAX_VALUE : s;
        }

        private static long mul(long a, long b) {
            return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
        }
    }
}
