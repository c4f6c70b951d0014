package io.signalman.engine.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import io.signalman.rulelang.RuleFile;
import io.signalman.rulelang.RuleReading;
import org.junit.jupiter.api.Test;

/**
 * A rule's constraints, parsed as Drools parses them, evaluated against facts: the failing
 * constraint is named with the value it saw, and what cannot be evaluated says so.
 */
class ConditionCheckTest {

    public record Msg(String priority, String subtype, int size) {
        public boolean flag(String name) {
            return "urgent".equals(name);
        }
    }

    public record Card(String id, List<String> may) {
    }

    public record Box(List<String> items) {
        public List<String> pick(String s) {
            return items.contains(s) ? List.of(s) : List.of();
        }
    }

    private static RuleCheck check(String when, Object... facts) {
        String drl = "package t;\nrule \"r\"\nwhen\n" + when + "\nthen\nend\n";
        RuleReading r = RuleFile.read(drl, null).rules().get(0);
        return new ConditionCheck(List.of(facts)).check(RuleConditions.of(r));
    }

    @Test
    void aFailedEqualityNamesTheConstraintAndTheValueItSaw() {
        RuleCheck c = check("Msg( priority == \"critical\" )", new Msg("high", "trade.x", 3));

        assertFalse(c.holds());
        assertEquals("priority == \"critical\"", c.failed().constraint());
        assertEquals(Map.of("priority", "high"), c.failed().values());
        assertEquals("priority == \"critical\" was false: priority is \"high\"", c.failed().sentence());
        assertEquals(4, c.failed().line(), "the constraint's own line in the DRL");
    }

    @Test
    void theFirstFailingConstraintOfAPatternIsTheOneShownAndTheOthersAreListed() {
        RuleCheck c = check("Msg( subtype str[startsWith] \"trade.\", size > 10, priority matches \"h.*\" )",
                new Msg("high", "trade.x", 3));

        assertEquals("size > 10", c.failed().constraint());
        assertEquals(3, c.failed().values().get("size"));
        assertEquals(List.of(true, false, true), c.checks().stream().map(Check::result).toList(),
                "why-not lists every constraint of the pattern with its own result");
    }

    @Test
    void stringOperatorsRangesAndMethodCallsAreEvaluated() {
        Msg m = new Msg("high", "service.offline", 7);

        assertTrue(check("Msg( subtype str[endsWith] \".offline\", size > 5 && < 10, flag(\"urgent\") )", m).holds());
        assertFalse(check("Msg( size > 1 && < 5 )", m).holds());
        assertTrue(check("Msg( subtype not matches \"trade\\\\..*\", priority in (\"high\", \"low\") )", m).holds());
        RuleCheck notFlagged = check("Msg( !flag(\"urgent\") )", m);
        assertEquals("!flag(\"urgent\") was false: flag(\"urgent\") is true", notFlagged.failed().sentence());
    }

    @Test
    void aBindingFromAnEarlierPatternIsReadWhereALaterOneUsesIt() {
        RuleCheck c = check("$m : Msg()\nCard( id == \"a\", may contains $m.subtype )",
                new Msg("high", "trade.x", 1), new Card("a", List.of("tool.y")), new Card("b", List.of("trade.x")));

        assertFalse(c.holds());
        assertEquals("may contains $m.subtype", c.failed().constraint());
        assertEquals("trade.x", c.failed().values().get("$m.subtype"));
        assertEquals(1, c.failed().facts(), "only card a got as far as this constraint");
    }

    @Test
    void whenEveryFactFailsTheSameConstraintTheCountIsGiven() {
        RuleCheck c = check("Card( id == \"z\" )", new Card("a", List.of()), new Card("b", List.of()));

        assertEquals(2, c.failed().facts());
        assertTrue(c.failed().sentence().startsWith("id == \"z\" was false for 2 Card facts (the first: id is \"a\""),
                c.failed().sentence());
    }

    @Test
    void aMissingFactAndAnEmptyFromSayWhatWasMissing() {
        RuleCheck none = check("Card( id == \"a\" )", new Msg("high", "x", 1));
        assertEquals("there is no Card fact in this decision", none.failed().note());

        RuleCheck from = check("$b : Box()\n$s : String() from $b.pick(\"x\")", new Box(List.of("y")));
        assertFalse(from.holds());
        assertEquals("from $b.pick(\"x\")", from.failed().constraint());
        assertEquals(List.of(), from.failed().values().get("$b.pick(\"x\")"));
        assertTrue(check("$b : Box()\n$s : String() from $b.pick(\"y\")", new Box(List.of("y"))).holds());
    }

    @Test
    void whatExplainCannotEvaluateIsSaidRatherThanGuessed() {
        RuleCheck unknownField = check("Msg( priorty == \"high\" )", new Msg("high", "x", 1));
        assertNull(unknownField.failed().result());
        assertEquals("Msg has no field \"priorty\"", unknownField.failed().note());

        RuleCheck negation = check("Msg()\nnot Card()", new Msg("high", "x", 1));
        assertNull(negation.failed().result());
        assertTrue(negation.failed().note().startsWith("explain does not evaluate a pattern under not"), negation.failed().note());
    }

    @Test
    void patternsAfterTheFailingOneAreListedAsNotReached() {
        RuleCheck c = check("Msg( priority == \"low\" )\nCard( id == \"a\" )", new Msg("high", "x", 1), new Card("a", List.of()));

        assertEquals(2, c.checks().size());
        assertNull(c.checks().get(1).result());
        assertEquals("not reached: an earlier condition failed", c.checks().get(1).note());
    }
}
