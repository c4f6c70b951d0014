package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** The three-way merge that rebases a draft and reverts an activation. */
class LineMergeTest {

    /** The base, this draft's text and the live rules' text; what they merge to, and the lines of its conflicts. */
    private static final List<Arguments> MERGES = List.of(
            // a draft that changed rule a's line and live rules that changed rule c's line
            argumentSet("changes to different rules both survive",
                    "a1\na2\nb\nc1\nc2\n", "a1\nA2\nb\nc1\nc2\n", "a1\na2\nb\nc1\nC2\n", "a1\nA2\nb\nc1\nC2\n", List.of()),
            argumentSet("changes that only touch do not conflict",
                    "a\nb\nc\nd\n", "a\nB\nc\nd\n", "a\nb\nC\nd\n", "a\nB\nC\nd\n", List.of()),
            argumentSet("the same change on both sides is taken once",
                    "a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n", "a\nB\nc\n", List.of()),
            argumentSet("both changing one line keeps both between markers at its line",
                    "a\nb\nc\n", "a\nours\nc\n", "a\ntheirs\nc\n",
                    "a\n<<<<<<< the live rules\ntheirs\n=======\nours\n>>>>>>> this draft\nc\n", List.of(2)),
            argumentSet("two inserts at one place conflict",
                    "a\nb\n", "a\nx\nb\n", "a\ny\nb\n", "a\n<<<<<<< the live rules\ny\n=======\nx\n>>>>>>> this draft\nb\n", List.of(2)),
            argumentSet("an insert after a change does not conflict",
                    "a\nb\nc\n", "a\nB\nc\n", "a\nb\nnew\nc\n", "a\nB\nnew\nc\n", List.of()));

    @ParameterizedTest(name = "{argumentSetName}")
    @FieldSource("MERGES")
    void aMergeTakesBothSidesAndMarksWhereTheyConflict(String base, String ours, String theirs, String merged,
                                                       List<Integer> conflicts) {
        LineMerge.Result r = LineMerge.merge(LineMerge.lines(base), LineMerge.lines(ours), LineMerge.lines(theirs),
                "this draft", "the live rules");

        assertEquals(merged, r.text());
        assertEquals(conflicts, r.conflicts());
        // the markers left in the text are found again where the conflicts are
        assertEquals(conflicts, LineMerge.unresolved(r.text()));
    }
}
