package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The activation record's diff: the changed lines, old first, with two lines of context. */
class TextDiffTest {

    @Test
    void aChangedLineShowsRemovedThenAddedWithContext() {
        String before = "a\nb\nc\nd\ne\nf\ng\n";
        String after = "a\nb\nc\nD\ne\nf\ng\n";
        assertEquals("...\n b\n c\n-d\n+D\n e\n f\n...\n", TextDiff.unified(before, after));
    }

    @Test
    void anAddedFileIsAllAdded() {
        assertEquals("+x\n+y\n", TextDiff.unified("", "x\ny"));
    }
}
