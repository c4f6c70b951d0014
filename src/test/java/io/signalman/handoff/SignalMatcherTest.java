package io.signalman.handoff;

import static io.signalman.handoff.SignalMatcher.Level.CASE_INSENSITIVE;
import static io.signalman.handoff.SignalMatcher.Level.EXACT;
import static io.signalman.handoff.SignalMatcher.Level.NORMALIZED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

/** The three matching levels of seed 001 section 1, with the seed's own examples (section 3). */
class SignalMatcherTest {

    /** A signal, a response, and the level it matches the response at (null: it does not), and why. */
    private record Matched(String why, String signal, String text, SignalMatcher.Level level) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Matched> MATCHED = List.of(
            new Matched("an exact signal inside longer text matches exactly", "[ROUTE_EXECUTOR]",
                    "We need the executor. [ROUTE_EXECUTOR] now", EXACT),
            new Matched("an exact signal at the end matches exactly", "[QUESTION]", "Question 1: 2+2? [QUESTION]", EXACT),
            // Seed section 3 labels this "exact"; the padding means no substring matches, so it is level 3.
            new Matched("the seed's padded signal matches at the normalized level", "[ROUTE_EXECUTOR]",
                    "I think we need to call the executor. [  ROUTE_EXECUTOR  ]", NORMALIZED),
            // Seed section 3 labels this "case-insensitive"; the spaces inside the brackets make it level 3.
            new Matched("the seed's mixed-case padded signal matches at the normalized level", "[ROUTE_EXECUTOR]",
                    "Let me route to [ Route_Executor ] please", NORMALIZED),
            new Matched("a signal in lower case matches case-insensitively", "[ROUTE_EXECUTOR]", "then [route_executor].",
                    CASE_INSENSITIVE),
            new Matched("a signal in mixed case matches case-insensitively", "[DONE]", "all [Done]", CASE_INSENSITIVE),
            new Matched("spaces do not stand in for an underscore", "[ROUTE_EXECUTOR]", "The decision is [ ROUTE  EXECUTOR ]",
                    null),
            new Matched("a spaced signal matches its collapsed form", "[ROUTE EXECUTOR]", "[  route  executor ]", NORMALIZED),
            new Matched("a spaced signal matches its form collapsed from any white space", "[ROUTE EXECUTOR]",
                    "go [ROUTE\t\u00a0 EXECUTOR\n] go", NORMALIZED),
            new Matched("Vietnamese matches when normalized", "[KẾT THÚC THI]", "[ KẾT  THÚC  THI ]", NORMALIZED),
            new Matched("Vietnamese in lower case matches case-insensitively", "[KẾT THÚC THI]", "xong rồi [kết thúc thi]",
                    CASE_INSENSITIVE),
            // the same letters typed decomposed (e + combining marks) are the same letters
            new Matched("Vietnamese typed decomposed matches case-insensitively", "[KẾT THÚC THI]",
                    "[KE\u0302\u0301T THU\u0301C THI]", CASE_INSENSITIVE),
            new Matched("a near miss: no brackets", "[QUESTION]", "QUESTION without brackets", null),
            new Matched("a near miss: a longer name", "[QUESTION]", "[QUESTIONS]", null),
            new Matched("a near miss: a space inside the name", "[QUESTION]", "[QUEST ION]", null),
            new Matched("a near miss: parentheses", "[QUESTION]", "( QUESTION )", null),
            new Matched("a near miss: brackets nested around part of the name", "[QUESTION]", "[[QUESTIO]N]", null),
            new Matched("a near miss: more words", "[DONE]", "[NOT DONE]", null),
            new Matched("a near miss: no text", "[DONE]", "", null),
            new Matched("a near miss: the letters without their marks", "[KẾT THÚC THI]", "[KET THUC THI]", null));

    @ParameterizedTest(name = "{0}")
    @FieldSource("MATCHED")
    void aSignalMatchesAResponseAtItsLevelOrNot(Matched c) {
        assertEquals(c.level(), SignalMatcher.match(c.signal(), c.text()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a name in brackets is a signal                         | [QUESTION]      | true
            a name of several words in brackets is a signal        | [KẾT THÚC THI]  | true
            a name without brackets is no signal                   | QUESTION        | false
            brackets around a space only are no signal             | [ ]             | false
            empty brackets are no signal                           | []              | false
            a second closing bracket is no signal                  | [A]B]           | false
            a space after the brackets is no signal                | '[QUESTION] '   | false
            """)
    void signalsMustBeANameInOnePairOfBrackets(String why, String signal, boolean wellFormed) {
        assertEquals(wellFormed, SignalMatcher.wellFormed(signal));
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
