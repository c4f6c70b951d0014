package io.signalman.handoff;

import io.signalman.json.WireName;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds a signal such as {@code [QUESTION]} in an agent's response, at three levels tried in
 * order: exact substring, case-insensitive substring, and
 * normalized bracket match, where the text inside each pair of brackets is lower-cased, trimmed
 * and has its runs of Unicode whitespace collapsed, so {@code [  route  executor ]} is
 * {@code [ROUTE EXECUTOR]}.
 *
 * <p>NOTE: both sides are put in Unicode NFC first: a Vietnamese {@code ế} typed as {@code e} plus
 * two combining marks is the same letter to a reader, and must be to the router.
 */
public final class SignalMatcher {

    /** How a signal was found; the wire names are the {@code match_level} of a decision. */
    public enum Level implements WireName {
        EXACT, CASE_INSENSITIVE, NORMALIZED
    }

    /**
     * The longest bracketed span, brackets included, that the third, normalized level looks at (as
     * go-agentic): the scan drops a span as soon as it grows past this, so a response costs time
     * linear in its length whatever its brackets hold. The exact and case-insensitive levels have
     * no such window: there a signal of any length matches as a substring, as in go-agentic.
     */
    public static final int MAX_SPAN_BYTES = 100;

    private static final Pattern SPACES = Pattern.compile("[\\s\\p{Z}]+", Pattern.UNICODE_CHARACTER_CLASS);
    /** What a signal must look like: one pair of brackets around a name that is not blank. */
    private static final Pattern SIGNAL = Pattern.compile("\\[[^\\[\\]]*[^\\[\\]\\s\\p{Z}][^\\[\\]]*\\]",
            Pattern.UNICODE_CHARACTER_CLASS);

    private SignalMatcher() {
    }

    /** True when {@code signal} is written as {@code [NAME]}: brackets around a name, no nested brackets. */
    public static boolean wellFormed(String signal) {
        return signal != null && SIGNAL.matcher(signal).matches();
    }

    /** True when {@code signal} is short enough to match at the normalized level: at most {@link #MAX_SPAN_BYTES} UTF-8 bytes. */
    public static boolean fits(String signal) {
        return signal != null && utf8Length(signal) <= MAX_SPAN_BYTES;
    }

    /** The level at which {@code signal} occurs in {@code text}, or null when it does not. */
    public static Level match(String signal, String text) {
        if (signal == null || text == null || signal.isEmpty()) {
            return null;
        }
        if (text.contains(signal)) {
            return Level.EXACT;
        }
        String s = nfc(signal);
        String t = nfc(text);
        if (t.toLowerCase(Locale.ROOT).contains(s.toLowerCase(Locale.ROOT))) {
            return Level.CASE_INSENSITIVE;
        }
        if (!s.startsWith("[") || !s.endsWith("]") || !fits(s)) {
            return null; // the normalized level reads only spans within the window
        }
        String want = normalize(s.substring(1, s.length() - 1));
        return anySpan(t, inside -> normalize(inside).equals(want)) ? Level.NORMALIZED : null;
    }

    /**
     * Whether the inside of some bracketed span of {@code t} (innermost brackets, at most
     * {@link #MAX_SPAN_BYTES} UTF-8 bytes with its brackets) passes {@code test}. One pass over
     * the text; each span is tested once and is short, so the whole costs linear time.
     */
    private static boolean anySpan(String t, java.util.function.Predicate<String> test) {
        int open = -1;
        int bytes = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '[') {
                open = i;
                bytes = 1;
            } else if (open >= 0) {
                bytes += utf8Length(c);
                if (bytes > MAX_SPAN_BYTES) {
                    open = -1;
                } else if (c == ']') {
                    if (test.test(t.substring(open + 1, i))) {
                        return true;
                    }
                    open = -1;
                }
            }
        }
        return false;
    }

    /** UTF-8 bytes of one UTF-16 unit: a surrogate pair is 4 bytes, counted 2 per half. */
    private static int utf8Length(char c) {
        return c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
    }

    private static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            n += utf8Length(s.charAt(i));
        }
        return n;
    }

    /** The normalized form of a signal, {@code [kết thúc thi]}: two signals with one form are the same signal. */
    public static String canonical(String signal) {
        String s = nfc(signal);
        if (s.startsWith("[") && s.endsWith("]") && s.length() >= 2) {
            return "[" + normalize(s.substring(1, s.length() - 1)) + "]";
        }
        return normalize(s);
    }

    private static String normalize(String inside) {
        return SPACES.matcher(inside).replaceAll(" ").strip().toLowerCase(Locale.ROOT);
    }

    private static String nfc(String s) {
        return Normalizer.normalize(s, Normalizer.Form.NFC);
    }
}
