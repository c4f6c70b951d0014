package io.signalman.rulelang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ControlCharactersTest {

    @Test
    void tabsAndLineBreaksOfEveryKindAreText() {
        assertEquals(List.of(), ControlCharacters.in("# a\theading\r\nline two\rline three\n"));
    }

    @Test
    void aNulIsFoundAtItsLineAndColumn() {
        // Given a README holding a rule file after a NUL on its second line
        String text = "# docs\nnotes\0signals/zzz.drl\0rule\n";

        // When it is looked at
        List<Finding> found = ControlCharacters.in(text);

        // Then the first NUL of the line is named, once for the line
        assertEquals(1, found.size(), found::toString);
        assertEquals(2, found.get(0).line());
        assertEquals(6, found.get(0).column());
        assertTrue(found.get(0).message().contains("U+0000"), found.get(0).message());
    }

    @Test
    void everyOtherC0ControlDelAndC1ControlIsFound() {
        for (char c : new char[] {0x01, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x85, 0x9f}) {
            assertEquals(1, ControlCharacters.in("a" + c).size(), "U+" + Integer.toHexString(c));
        }
    }

    @Test
    void aFileOfControlCharactersGivesAFewFindingsNotOnePerByte() {
        assertEquals(ControlCharacters.MAX_FINDINGS, ControlCharacters.in("\0\n".repeat(10_000)).size());
    }
}
