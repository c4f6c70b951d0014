package io.signalman.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Refuses a body that is not well-formed UTF-8 (RFC 3629) before the JSON parser sees it (issue
 * 26.7). Jackson's decoder accepts an overlong form ({@code C0 AF} for {@code /}), an encoded
 * surrogate ({@code ED A0 80}) and a leading byte-order mark, each of which lets two different byte
 * strings mean the same text, or none: a rule, a log and a replay must all read exactly what was
 * sent. The refusal names the byte offset and, when the bytes before it parse, the field.
 */
final class StrictUtf8 {

    private StrictUtf8() {
    }

    static void check(byte[] b) throws InputException {
        if (b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF) {
            throw new InputException("", "malformed JSON: the body starts with a byte-order mark (EF BB BF) at byte 0; send "
                    + "UTF-8 without one", true);
        }
        int i = 0;
        int n = b.length;
        while (i < n) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i++;
                continue;
            }
            String problem = null;
            int len;
            // The second byte's range is narrower after a lead byte that would otherwise allow an
            // overlong encoding (E0, F0), a surrogate (ED) or a code point above U+10FFFF (F4).
            int lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
            int hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                len = 2;
            } else if (c >= 0xE0 && c <= 0xEF) {
                len = 3;
            } else if (c >= 0xF0 && c <= 0xF4) {
                len = 4;
            } else {
                len = 1;
                problem = c == 0xC0 || c == 0xC1 ? "an overlong encoding" : c >= 0xF5 ? "a byte that is never UTF-8"
                        : "a continuation byte without a lead byte";
            }
            if (problem == null) {
                if (i + len > n) {
                    problem = "a character cut short by the end of the body";
                } else {
                    int second = b[i + 1] & 0xff;
                    if (second < lo || second > hi) {
                        problem = second >= 0x80 && second <= 0xBF ? (c == 0xED ? "an encoded surrogate (U+D800..U+DFFF)"
                                : c == 0xF4 ? "a code point above U+10FFFF" : "an overlong encoding") : "a broken sequence";
                    }
                    for (int k = 2; problem == null && k < len; k++) {
                        int next = b[i + k] & 0xff;
                        if (next < 0x80 || next > 0xBF) {
                            problem = "a broken sequence";
                        }
                    }
                }
            }
            if (problem != null) {
                String field = fieldAt(b, i);
                throw new InputException(field, "malformed JSON: not UTF-8 at byte " + i + (field.isEmpty() ? "" : " (in "
                        + field + ")") + ": " + problem + " (" + hex(b, i, Math.min(n, i + Math.max(len, 2))) + ")", true);
            }
            i += len;
        }
    }

    /** The path of the value being read at byte {@code offset}, as far as the bytes before it parse; "" if not. */
    private static String fieldAt(byte[] b, int offset) {
        try (JsonParser p = Json.MAPPER.getFactory().createParser(b, 0, offset)) {
            String path = "";
            while (true) {
                JsonToken t;
                try {
                    t = p.nextToken();
                } catch (IOException e) {
                    return path;
                }
                if (t == null) {
                    return path;
                }
                path = path(p);
            }
        } catch (IOException e) {
            return "";
        }
    }

    private static String path(JsonParser p) {
        StringBuilder sb = new StringBuilder();
        java.util.Deque<String> parts = new java.util.ArrayDeque<>();
        for (var ctx = p.getParsingContext(); ctx != null && !ctx.inRoot(); ctx = ctx.getParent()) {
            if (ctx.inObject() && ctx.getCurrentName() != null) {
                parts.push("." + ctx.getCurrentName());
            } else if (ctx.inArray()) {
                parts.push("[" + Math.max(0, ctx.getCurrentIndex()) + "]");
            }
        }
        parts.forEach(sb::append);
        return sb.length() > 0 && sb.charAt(0) == '.' ? sb.substring(1) : sb.toString();
    }

    private static String hex(byte[] b, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%02X", b[i] & 0xff));
        }
        return sb.toString();
    }
}
