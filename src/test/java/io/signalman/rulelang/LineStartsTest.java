package io.signalman.rulelang;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Lines and offsets agree with counting newlines, at every offset of a text with empty lines and no final newline. */
class LineStartsTest {

    @Test
    void everyOffsetIsOnTheLineThatCountingNewlinesGives() {
        String text = "rule \"a\"\n\nwhen\n  Message()\nthen\n  decide.primary(\"x\");\nend";
        LineStarts lines = LineStarts.of(text);
        assertEquals(7, lines.lines());
        for (int at = 0; at <= text.length(); at++) {
            int counted = (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
            assertEquals(counted, lines.lineOf(at), "offset " + at);
        }
        assertEquals(text.indexOf("when"), lines.offset(3));
        assertEquals(0, lines.offset(0));
        assertEquals(text.indexOf("end"), lines.offset(99));
    }
}
