package io.signalman.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.rulelang.RegexSize;
import io.signalman.rulelang.RuleFile;
import io.signalman.rulelang.RuleReading;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CostModelTest {

    private static RuleBundle live;
    private static CompiledPack broker;

    @BeforeAll
    static void compile() {
        live = TestBundles.compile(TestBundles.LIVE_RULES);
        broker = live.requirePack("broker");
    }

    private static RuleReading brokerRule(String when) {
        String text = TestBundles.brokerRule("under test", 100, when);
        RuleFile f = RuleFile.read(text, broker.definition().vocabulary());
        assertTrue(f.syntaxErrors().isEmpty() && f.errors().isEmpty(), () -> f.syntaxErrors() + " " + f.errors());
        return f.rules().get(0);
    }

    private static CostModel model() {
        return new CostModel(broker.definition().vocabulary(), broker.reference().facts(), Budgets.DEFAULT);
    }

    @Test
    void aJoinOfUnpinnedCardsCountsEveryCardToThePowerOfItsPatterns() {
        // Given the org chart's 26 cards and a rule with six card patterns that nothing joins
        long cards = broker.reference().facts().stream().filter(f -> f instanceof io.signalman.broker.AgentCard).count();
        RuleReading rule = brokerRule("    $m : Message( subtype == \"x\" )\n" + "    AgentCard()\n".repeat(6));

        // When the model estimates it
        CostModel.Estimate e = model().estimate(rule);

        // Then it counts cards^6 combinations, says so in words, and refuses it naming the flag
        assertEquals((long) Math.pow(cards, 6), e.combinations());
        assertTrue(e.combinationWords().startsWith(cards + "^6 = 3.1e8 combinations of AgentCard"), e.combinationWords());
        String problem = model().problem(rule);
        assertTrue(problem.contains("--max-rule-combinations") && problem.contains("26^6"), problem);
    }

    @Test
    void aCardPinnedToTheMessageByAUniqueFieldCountsOneCardPerPattern() {
        // Given six card patterns, each joined to the message on the card's id (unique in the org chart)
        RuleReading rule = brokerRule("    $m : Message( subtype == \"x\" )\n"
                + "    AgentCard( id == $m.fromAgent )\n".repeat(6));

        // Then the model counts one combination, since no two cards share an id
        assertEquals(1, model().estimate(rule).combinations());
        assertNull(model().problem(rule));
    }

    @Test
    void aCardPinnedToALiteralCountsTheCardsHoldingIt() {
        // Given the org chart's four trading cards, pinned by a literal role, twice
        RuleReading rule = brokerRule("    AgentCard( role == \"trading\" )\n    AgentCard( role == \"trading\" )");

        // Then the model counts four by four
        assertEquals(16, model().estimate(rule).combinations());
    }

    @Test
    void aPatternCostsItsCompiledSizeTimesTheLongestText() {
        // Given a pattern of about 200 instructions tested on the message
        RuleReading rule = brokerRule("    Message( subtype matches \"(.*){90}z\" )");
        long size = RegexSize.of("(.*){90}z").size();

        // When the longest text is the body limit, then each character costs the pattern's size
        long steps = model().estimate(rule).steps();
        assertTrue(steps >= size * Budgets.DEFAULT.longestText(), steps + " < " + size + " x body limit");

        // And with a smaller budget it is refused, naming the pattern and the flag
        CostModel strict = new CostModel(broker.definition().vocabulary(), broker.reference().facts(),
                new Budgets(100_000, size * 1000, Budgets.DEFAULT.longestText(), 1L << 30, 1000, 3, 120, Long.MAX_VALUE));
        String problem = strict.problem(rule);
        assertTrue(problem.contains("--max-rule-steps") && problem.contains("(.*){90}z"), problem);
    }

    @Test
    void manyRulesEachWithinBudgetAreRefusedTogetherOverThePackBudget() {
        // Given a pattern of about 200 steps a character, within one rule's budget
        RuleReading rule = brokerRule("    Message( subtype matches \"(.*){90}z\" )");
        assertNull(model().problem(rule));

        // When a pack holds a hundred such rules (every one tested on every message)
        String problem = model().packProblem(java.util.Collections.nCopies(100, rule));

        // Then the pack is refused as a whole, naming the flag and the costliest rules
        assertTrue(problem != null && problem.contains("--max-pack-steps") && problem.contains("\"under test\""), problem);
        assertNull(model().packProblem(List.of(rule)), "one such rule is within the pack's budget");
    }

    @Test
    void aPatternOnReferenceDataIsCostedAtTheLongestTextTheDataHolds() {
        // Given an org chart whose one card has a title far longer than any request body
        io.signalman.broker.AgentCard longTitle = new io.signalman.broker.AgentCard("x", "X", "t".repeat(1_000_000), "r",
                null, null);
        CostModel m = new CostModel(broker.definition().vocabulary(), List.of(longTitle), Budgets.DEFAULT);

        // When a rule matches a pattern on the cards' titles
        long steps = m.estimate(brokerRule("    AgentCard( title matches \"(a|b)+z\" )")).steps();

        // Then each character of that title counts, not only the body limit's
        assertTrue(steps >= 1_000_000, steps + " steps");
    }

    @Test
    void aTestOnAListOfTheReferenceDataCountsTheList() {
        // Given an org chart whose one card lists 20,000 authorities
        List<String> authority = java.util.stream.IntStream.range(0, 20_000).mapToObj(i -> "x" + i).toList();
        io.signalman.broker.AgentCard card = new io.signalman.broker.AgentCard("auditor", "A", "t", "r", null, authority);
        CostModel m = new CostModel(broker.definition().vocabulary(), List.of(card), Budgets.DEFAULT);

        // When a rule tests that list against itself (each element looked for in the whole list)
        RuleReading rule = brokerRule("    AgentCard( authority != null, authority.containsAll(authority) )");

        // Then the test costs the list's length squared, and the rule is refused
        assertTrue(m.estimate(rule).steps() >= 20_000L * 20_000, String.valueOf(m.estimate(rule).steps()));
        assertTrue(m.problem(rule).contains("--max-rule-steps"), m.problem(rule));
    }

    @Test
    void theShippedRulesAreFarInsideTheDefaultBudgets() throws IOException {
        // Given every shipped DRL file, read with its pack's vocabulary, and its pack's reference data
        for (CompiledPack pack : live.packs().values()) {
            CostModel m = new CostModel(pack.definition().vocabulary(), pack.reference().facts(), Budgets.DEFAULT);
            try (Stream<Path> files = Files.list(TestBundles.LIVE_RULES.resolve(pack.name()))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".drl")).toList()) {
                    for (RuleReading r : RuleFile.read(Files.readString(f), pack.definition().vocabulary()).rules()) {
                        // Then each rule is within a hundredth of the combinations and a tenth of the steps
                        CostModel.Estimate e = m.estimate(r);
                        assertTrue(e.combinations() * 100 <= Budgets.DEFAULT.maxCombinations(), f + " " + r.name() + ": " + e);
                        assertTrue(e.steps() * 10 <= Budgets.DEFAULT.maxSteps(), f + " " + r.name() + ": " + e);
                    }
                }
            }
        }
    }

    @Test
    void numbersReadAsAnalystsWriteThem() {
        assertEquals("17,576", CostModel.number(17_576));
        assertEquals("3.1e8", CostModel.number(308_915_776));
        assertEquals("more than 9.2e18", CostModel.number(Long.MAX_VALUE));
    }

    @Test
    void regexSizeMultipliesNestedRepetitions() {
        assertEquals(1000, RegexSize.of("(a{10}){100}").maxRepeat() * 10);
        assertTrue(RegexSize.of("((a|b){100}){100}").size() >= 10_000);
        assertTrue(RegexSize.of("trade\\..*").size() < 20);
        assertTrue(RegexSize.of("[a{1000}]").maxRepeat() == 1, "a brace inside a class is a member, not a repetition");
        assertTrue(RegexSize.of("a\\{1000}").maxRepeat() == 1, "an escaped brace is a literal");
        assertTrue(RegexSize.of("(.*){1000}z").problem().contains("at most 100"));
    }
}
