package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The three-way merge that rebases a draft and reverts an activation. */
class LineMergeTest {

    private static LineMerge.Result merge(String base, String ours, String theirs) {
        return LineMerge.merge(LineMerge.lines(base), LineMerge.lines(ours), LineMerge.lines(theirs), "this draft", "the live rules");
    }

    @Test
    void changesToDifferentRulesBothSurvive() {
        // Given a draft that changed rule a's line and live rules that changed rule c's line
        LineMerge.Result r = merge("a1\na2\nb\nc1\nc2\n", "a1\nA2\nb\nc1\nc2\n", "a1\na2\nb\nc1\nC2\n");

        // Then both changes are in the result, with no conflict
        assertEquals("a1\nA2\nb\nc1\nC2\n", r.text());
        assertEquals(List.of(), r.conflicts());
    }

    @Test
    void changesThatOnlyTouchDoNotConflict() {
        LineMerge.Result r = merge("a\nb\nc\nd\n", "a\nB\nc\nd\n", "a\nb\nC\nd\n");
        assertEquals("a\nB\nC\nd\n", r.text());
        assertEquals(List.of(), r.conflicts());
    }

    @Test
    void theSameChangeOnBothSidesIsTakenOnce() {
        LineMerge.Result r = merge("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n");
        assertEquals("a\nB\nc\n", r.text());
        assertEquals(List.of(), r.conflicts());
    }

    @Test
    void bothChangingOneLineKeepsBothBetweenMarkersAtItsLine() {
        LineMerge.Result r = merge("a\nb\nc\n", "a\nours\nc\n", "a\ntheirs\nc\n");
        assertEquals("a\n<<<<<<< the live rules\ntheirs\n=======\nours\n>>>>>>> this draft\nc\n", r.text());
        assertEquals(List.of(2), r.conflicts());
        assertEquals(List.of(2), LineMerge.unresolved(r.text()));
    }

    @Test
    void twoInsertsAtOnePlaceConflictAndAnInsertAfterAChangeDoesNot() {
        assertEquals(List.of(2), merge("a\nb\n", "a\nx\nb\n", "a\ny\nb\n").conflicts());
        LineMerge.Result after = merge("a\nb\nc\n", "a\nB\nc\n", "a\nb\nnew\nc\n");
        assertEquals("a\nB\nnew\nc\n", after.text());
        assertEquals(List.of(), after.conflicts());
    }
}
