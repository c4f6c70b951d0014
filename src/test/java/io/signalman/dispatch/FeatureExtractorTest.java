package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FeatureExtractorTest {

    @Test
    void latinTextIsAboutFourCharactersAToken() {
        assertEquals(0, FeatureExtractor.tokens(""));
        assertEquals(0, FeatureExtractor.tokens("abc"));
        assertEquals(1, FeatureExtractor.tokens("abcd"));
        assertEquals(51, FeatureExtractor.tokens("a".repeat(204)));
    }

    @Test
    void cjkCodePointsCountOneEach() {
        assertEquals(4, FeatureExtractor.tokens("你好世界"), "Han");
        assertEquals(5, FeatureExtractor.tokens("안녕하세요"), "Hangul syllables");
        assertEquals(3, FeatureExtractor.tokens("ひらが"), "Hiragana is inside U+2E80..U+9FFF");
        assertEquals(2 + 1, FeatureExtractor.tokens("你好abcd"), "CJK plus a quarter of the rest");
        assertEquals(1, FeatureExtractor.tokens("\uf900"), "CJK compatibility ideographs");
    }

    @Test
    void fullWidthPunctuationAndEmojiAreNotCjk() {
        assertFalse(FeatureExtractor.isCjk('，'));
        assertEquals(1, FeatureExtractor.tokens("😀😀😀😀"), "four code points, not eight UTF-16 units");
    }

    @Test
    void codeBlocksArePairsOfFences() {
        assertEquals(0, FeatureExtractor.codeBlocks("```unclosed"));
        assertEquals(1, FeatureExtractor.codeBlocks("```go\nx\n```"));
        assertEquals(1, FeatureExtractor.codeBlocks("```a``` ```b"));
        assertEquals(2, FeatureExtractor.codeBlocks("```a``````b```"));
        assertEquals(1, FeatureExtractor.codeBlocks("``````"), "non-overlapping fences, as Go counts them");
    }

    @Test
    void toolCallsCountOverTheLastSixEntriesOnly() {
        List<InboundMessage.Turn> h = new ArrayList<>();
        h.add(new InboundMessage.Turn("assistant", 9));
        for (int i = 0; i < 6; i++) {
            h.add(new InboundMessage.Turn(i % 2 == 0 ? "assistant" : "tool", i % 2 == 0 ? 1 : null));
        }
        assertEquals(3, FeatureExtractor.recentToolCalls(h));
        assertEquals(7, FeatureExtractor.extract("", h).conversationDepth());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a data URI of an image is an attachment                | data:image/png;base64,AA         | true
            a data URI of audio in upper case is an attachment     | DATA:AUDIO/ogg                   | true
            a media file name in upper case is an attachment       | see Cat.JPEG please              | true
            a video file name is an attachment                     | clip.webm                        | true
            a format named without its dot is no attachment        | a plain question about png files | false
            a data URI of text is no attachment                    | data:text/plain                  | false
            """)
    void attachmentsAreDataUrisOrMediaExtensionsInAnyCase(String why, String text, boolean attachment) {
        assertEquals(attachment, FeatureExtractor.hasAttachments(text));
    }

    @Test
    void extractFillsEveryFeature() {
        Features f = FeatureExtractor.extract("```x``` img.png 你好", List.of(new InboundMessage.Turn("assistant", 2)));
        assertEquals(new Features(2 + 16 / 4, 1, 2, 1, true), f);
    }
}
