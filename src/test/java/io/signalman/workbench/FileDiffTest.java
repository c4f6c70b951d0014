package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The activation record's diff: a unified diff with two lines of context. */
class FileDiffTest {

    @Test
    void aChangedLineShowsRemovedThenAddedWithContext() {
        String before = "a\nb\nc\nd\ne\nf\ng\n";
        String after = "a\nb\nc\nD\ne\nf\ng\n";
        assertEquals("--- a/broker/x.drl\n+++ b/broker/x.drl\n@@ -2,5 +2,5 @@\n b\n c\n-d\n+D\n e\n f\n",
                FileDiff.unified("broker/x.drl", before, after));
    }

    @Test
    void anAddedFileIsAllAdded() {
        assertEquals("--- /dev/null\n+++ b/broker/x.drl\n@@ -1,0 +1,2 @@\n+x\n+y\n", FileDiff.unified("broker/x.drl", "", "x\ny"));
    }
}
