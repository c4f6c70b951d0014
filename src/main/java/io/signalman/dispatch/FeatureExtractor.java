package io.signalman.dispatch;

import java.util.List;

/** Computes {@link Features} from a message and its history exactly as seed 004 does. */
public final class FeatureExtractor {

    /** Six entries cover about one tool round trip: user, assistant with call, tool result, assistant. */
    public static final int LOOKBACK = 6;

    private static final List<String> DATA_URIS = List.of("data:image/", "data:audio/", "data:video/");
    private static final List<String> MEDIA_EXTENSIONS = List.of(".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp",
            ".mp3", ".wav", ".ogg", ".m4a", ".flac", ".mp4", ".avi", ".mov", ".webm");

    private FeatureExtractor() {
    }

    public static Features extract(String message, List<InboundMessage.Turn> history) {
        String text = message == null ? "" : message;
        return new Features(tokens(text), codeBlocks(text), recentToolCalls(history), history.size(),
                hasAttachments(text));
    }

    /**
     * CJK code points (U+2E80..U+9FFF, U+F900..U+FAFF, U+AC00..U+D7AF) are about one token each;
     * other code points about a quarter (four characters a token), rounded down as a whole.
     * Counting code points, not UTF-16 units, keeps an emoji one character, as in Go.
     */
    static int tokens(String text) {
        int total = 0;
        int cjk = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            total++;
            if (isCjk(cp)) {
                cjk++;
            }
        }
        return cjk + (total - cjk) / 4;
    }

    static boolean isCjk(int cp) {
        return cp >= 0x2E80 && cp <= 0x9FFF || cp >= 0xF900 && cp <= 0xFAFF || cp >= 0xAC00 && cp <= 0xD7AF;
    }

    /** Non-overlapping ``` fences, paired: an unclosed fence is not a block. */
    static int codeBlocks(String text) {
        int fences = 0;
        for (int at = text.indexOf("```"); at >= 0; at = text.indexOf("```", at + 3)) {
            fences++;
        }
        return fences / 2;
    }

    static int recentToolCalls(List<InboundMessage.Turn> history) {
        int calls = 0;
        for (InboundMessage.Turn t : history.subList(Math.max(0, history.size() - LOOKBACK), history.size())) {
            calls += t.calls();
        }
        return calls;
    }

    /** Conservative by design: a missed attachment only means the heavy model is not forced. */
    static boolean hasAttachments(String text) {
        String lower = GoText.lower(text);
        return DATA_URIS.stream().anyMatch(lower::contains) || MEDIA_EXTENSIONS.stream().anyMatch(lower::contains);
    }
}
