package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class GoTextTest {

    /** A text, what {@code GoText.trim} makes of it, and why that is what Go does. */
    private record Trimmed(String why, String text, String trimmed) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Trimmed> TRIMMED = List.of(
            new Trimmed("no-break and narrow no-break spaces, which Java's strip keeps, are removed", "\u00a0x\u202f", "x"),
            new Trimmed("ideographic and em spaces, tab, newline and next line are removed", "\u3000\u2003 x\t\n\u0085", "x"),
            new Trimmed("ogham space, line and paragraph separators and the math space are removed",
                    "\u1680\u2028x\u2029\u205f", "x"),
            // U+001C..U+001F are whitespace to Java, not to Go; U+200B is a zero-width space, not White_Space
            new Trimmed("the separators U+001C..U+001F are kept (not space to Go)", "\u001cx\u001f", "\u001cx\u001f"),
            new Trimmed("a zero-width space is kept (not White_Space)", "\u200bx", "\u200bx"),
            new Trimmed("null is empty", null, ""),
            new Trimmed("only space is empty", " \u00a0\u3000 ", ""));

    @ParameterizedTest(name = "{0}")
    @FieldSource("TRIMMED")
    void trimRemovesWhatGoCallsSpaceAtBothEnds(Trimmed c) {
        assertEquals(c.trimmed(), GoText.trim(c.text()));
    }

    @Test
    void isSpaceIsGosUnicodeWhiteSpace() {
        assertFalse(GoText.isSpace(0x200B));
        assertTrue(GoText.isSpace(0x85));
    }

    @Test
    void lowerMapsCodePointByCodePointLikeGo() {
        assertEquals("telegram", GoText.lower("TeLeGrAm"));
        assertEquals("i", GoText.lower("\u0130"), "Go maps dotted capital I to plain i, Java's toLowerCase to two chars");
        assertEquals("οδοσ", GoText.lower("ΟΔΟΣ"), "no final-sigma rule in Go");
        assertEquals("straße", GoText.lower("STRAßE"));
        assertEquals("\ud801\udc28", GoText.lower("\ud801\udc00"), "a supplementary letter (Deseret) is lowered too");
    }

    @Test
    void foldTrimsThenLowers() {
        assertEquals("group", GoText.fold("\u00a0 GROUP \u3000"));
    }
}
