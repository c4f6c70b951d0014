package io.signalman.dispatch;

/**
 * Trimming and lower-casing exactly as the seed's Go code does them, because users migrating
 * from it expect the same routes for the same inputs.
 *
 * <p>NOTE: Java's {@code String.strip()} and {@code toLowerCase(Locale.ROOT)} differ from Go's
 * {@code strings.TrimSpace} and {@code strings.ToLower}: {@code strip()} keeps a no-break space
 * (U+00A0, U+202F) that Go trims and trims U+001C..U+001F that Go keeps; {@code toLowerCase} maps
 * U+0130 to two characters and a final capital sigma to U+03C2, where Go maps code point by code
 * point. Both are reimplemented here over code points.
 */
public final class GoText {

    private GoText() {
    }

    /** Go's {@code unicode.IsSpace}: Latin-1 spaces, then the Unicode White_Space property. */
    public static boolean isSpace(int cp) {
        if (cp <= 0xFF) {
            return cp == ' ' || cp >= '\t' && cp <= '\r' || cp == 0x85 || cp == 0xA0;
        }
        return cp == 0x1680 || cp >= 0x2000 && cp <= 0x200A || cp == 0x2028 || cp == 0x2029 || cp == 0x202F
                || cp == 0x205F || cp == 0x3000;
    }

    /** Go's {@code strings.TrimSpace}; null is read as the empty string. */
    public static String trim(String s) {
        if (s == null) {
            return "";
        }
        int start = 0;
        int end = s.length();
        while (start < end) {
            int cp = s.codePointAt(start);
            if (!isSpace(cp)) {
                break;
            }
            start += Character.charCount(cp);
        }
        while (end > start) {
            int cp = s.codePointBefore(end);
            if (!isSpace(cp)) {
                break;
            }
            end -= Character.charCount(cp);
        }
        return s.substring(start, end);
    }

    /** Go's {@code strings.ToLower}: the simple lower-case mapping of each code point. */
    public static String lower(String s) {
        if (s == null) {
            return "";
        }
        // NOTE(perf): ASCII text (almost every message) is lowered without the code-point stream,
        // about 4% of a replayed record's time in a JFR profile of replay.
        char[] ascii = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                StringBuilder out = new StringBuilder(s.length());
                s.codePoints().forEach(cp -> out.appendCodePoint(Character.toLowerCase(cp)));
                return out.toString();
            }
            if (c >= 'A' && c <= 'Z') {
                if (ascii == null) {
                    ascii = s.toCharArray();
                }
                ascii[i] = (char) (c + ('a' - 'A'));
            }
        }
        return ascii == null ? s : new String(ascii);
    }

    /** {@code lower(trim(s))}, the normalization most selector fields get. */
    public static String fold(String s) {
        return lower(trim(s));
    }
}
