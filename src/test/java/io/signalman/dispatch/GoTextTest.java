package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GoTextTest {

    @Test
    void trimRemovesUnicodeWhitespaceThatJavaStripKeeps() {
        assertEquals("x", GoText.trim("\u00a0x\u202f"));
        assertEquals("x", GoText.trim("\u3000\u2003 x\t\n\u0085"));
        assertEquals("x", GoText.trim("\u1680\u2028x\u2029\u205f"));
    }

    @Test
    void trimKeepsWhatGoDoesNotCallSpace() {
        // U+001C..U+001F are whitespace to Java, not to Go; U+200B is a zero-width space, not White_Space
        assertEquals("\u001cx\u001f", GoText.trim("\u001cx\u001f"));
        assertEquals("\u200bx", GoText.trim("\u200bx"));
        assertFalse(GoText.isSpace(0x200B));
        assertTrue(GoText.isSpace(0x85));
    }

    @Test
    void trimOfNullOrOnlySpaceIsEmpty() {
        assertEquals("", GoText.trim(null));
        assertEquals("", GoText.trim(" \u00a0\u3000 "));
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
