package io.signalman.handoff;

import static io.signalman.handoff.SignalMatcher.Level.CASE_INSENSITIVE;
import static io.signalman.handoff.SignalMatcher.Level.EXACT;
import static io.signalman.handoff.SignalMatcher.Level.NORMALIZED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The three matching levels of seed 001 section 1, with the seed's own examples (section 3). */
class SignalMatcherTest {

    @Test
    void anExactSignalInsideLongerTextMatchesExactly() {
        assertEquals(EXACT, SignalMatcher.match("[ROUTE_EXECUTOR]", "We need the executor. [ROUTE_EXECUTOR] now"));
        assertEquals(EXACT, SignalMatcher.match("[QUESTION]", "Question 1: 2+2? [QUESTION]"));
    }

    @Test
    void theSeedsPaddedSignalMatchesAtTheNormalizedLevel() {
        // Seed section 3 labels this "exact"; the padding means no substring matches, so it is level 3.
        assertEquals(NORMALIZED, SignalMatcher.match("[ROUTE_EXECUTOR]", "I think we need to call the executor. [  ROUTE_EXECUTOR  ]"));
    }

    @Test
    void theSeedsMixedCasePaddedSignalMatchesAtTheNormalizedLevel() {
        // Seed section 3 labels this "case-insensitive"; the spaces inside the brackets make it level 3.
        assertEquals(NORMALIZED, SignalMatcher.match("[ROUTE_EXECUTOR]", "Let me route to [ Route_Executor ] please"));
    }

    @Test
    void aSignalInAnotherCaseMatchesCaseInsensitively() {
        assertEquals(CASE_INSENSITIVE, SignalMatcher.match("[ROUTE_EXECUTOR]", "then [route_executor]."));
        assertEquals(CASE_INSENSITIVE, SignalMatcher.match("[DONE]", "all [Done]"));
    }

    @Test
    void spacesDoNotStandInForAnUnderscore() {
        assertNull(SignalMatcher.match("[ROUTE_EXECUTOR]", "The decision is [ ROUTE  EXECUTOR ]"));
    }

    @Test
    void aSpacedSignalMatchesItsCollapsedForm() {
        assertEquals(NORMALIZED, SignalMatcher.match("[ROUTE EXECUTOR]", "[  route  executor ]"));
        assertEquals(NORMALIZED, SignalMatcher.match("[ROUTE EXECUTOR]", "go [ROUTE\t\u00a0 EXECUTOR\n] go"));
    }

    @Test
    void vietnameseMatchesWhenNormalized() {
        assertEquals(NORMALIZED, SignalMatcher.match("[KẾT THÚC THI]", "[ KẾT  THÚC  THI ]"));
        assertEquals(CASE_INSENSITIVE, SignalMatcher.match("[KẾT THÚC THI]", "xong rồi [kết thúc thi]"));
        // the same letters typed decomposed (e + combining marks) are the same letters
        assertEquals(CASE_INSENSITIVE, SignalMatcher.match("[KẾT THÚC THI]", "[KE\u0302\u0301T THU\u0301C THI]"));
    }

    @Test
    void nearMissesDoNotMatch() {
        assertNull(SignalMatcher.match("[QUESTION]", "QUESTION without brackets"));
        assertNull(SignalMatcher.match("[QUESTION]", "[QUESTIONS]"));
        assertNull(SignalMatcher.match("[QUESTION]", "[QUEST ION]"));
        assertNull(SignalMatcher.match("[QUESTION]", "( QUESTION )"));
        assertNull(SignalMatcher.match("[QUESTION]", "[[QUESTIO]N]"));
        assertNull(SignalMatcher.match("[DONE]", "[NOT DONE]"));
        assertNull(SignalMatcher.match("[DONE]", ""));
        assertNull(SignalMatcher.match("[KẾT THÚC THI]", "[KET THUC THI]"));
    }

    @Test
    void signalsMustBeANameInOnePairOfBrackets() {
        assertTrue(SignalMatcher.wellFormed("[QUESTION]"));
        assertTrue(SignalMatcher.wellFormed("[KẾT THÚC THI]"));
        assertFalse(SignalMatcher.wellFormed("QUESTION"));
        assertFalse(SignalMatcher.wellFormed("[ ]"));
        assertFalse(SignalMatcher.wellFormed("[]"));
        assertFalse(SignalMatcher.wellFormed("[A]B]"));
        assertFalse(SignalMatcher.wellFormed("[QUESTION] "));
    }

    @Test
    void twoSignalsWithOneNormalizedFormAreTheSameSignal() {
        assertEquals(SignalMatcher.canonical("[ROUTE EXECUTOR]"), SignalMatcher.canonical("[  route   executor ]"));
    }

    @Test
    void aLongSignalStillMatchesExactlyAndCaseInsensitivelyBecauseTheWindowIsTheNormalizedLevelsOnly() {
        // go-agentic's 100-byte window bounds its third, fuzzy level; the first two are plain substring tests
        String signal = "[" + "DONE_".repeat(24) + "]";
        assertTrue(signal.length() > 100);
        assertEquals(EXACT, SignalMatcher.match(signal, "ok " + signal));
        assertEquals(CASE_INSENSITIVE, SignalMatcher.match(signal, "ok " + signal.toLowerCase(java.util.Locale.ROOT)));
        assertNull(SignalMatcher.match(signal, "ok [ " + "done_".repeat(24) + " ]"), "not at the normalized level");
    }

    @Test
    void aBracketedSpanLongerThan100Utf8BytesNeverMatchesAtTheNormalizedLevel() {
        String padded = "[ DONE" + " ".repeat(93) + "]";
        assertEquals(100, padded.length());
        assertEquals(NORMALIZED, SignalMatcher.match("[DONE]", "ok " + padded));
        assertNull(SignalMatcher.match("[DONE]", "ok [ DONE" + " ".repeat(94) + "]"));
        // the innermost brackets are the span: a long outer span does not hide a short inner one
        assertEquals(NORMALIZED, SignalMatcher.match("[DONE]", "[" + "x".repeat(200) + "[ done ]" + "]"));
        assertNull(SignalMatcher.match("[" + "A".repeat(100) + "]", "[ " + "a".repeat(100) + " ]"));
    }

    @Test
    void aResponseOfManyUnclosedBracketsIsScannedInOnePass() {
        // Each '[' restarts the span and a span is dropped past 100 bytes: no span is rescanned
        String text = "[ x".repeat(200_000) + "[ done ]";
        assertEquals(NORMALIZED, SignalMatcher.match("[DONE]", text));
    }
}
