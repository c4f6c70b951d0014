package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.cost.Budgets;
import io.signalman.packs.Packs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog stops an evaluation over its budget wherever it is, inside a join included, and
 * the pack goes on deciding. The rules here are admitted by budgets loosened on purpose (as an
 * operator could loosen them), so that only the watchdog stands between them and the heap.
 */
class WatchdogTest {

    @TempDir
    Path dir;

    @AfterEach
    void defaults() {
        Budgets.use(Budgets.DEFAULT);
    }

    private RuleBundle withRule(String name, String when) throws Exception {
        Path rules = dir.resolve("rules");
        TestBundles.copyTree(TestBundles.RULES, rules);
        Files.writeString(rules.resolve("broker/costly.drl"), TestBundles.brokerRule(name, 1000, when));
        return TestBundles.compile(rules);
    }

    private static BrokerMessage message(String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"), "event", subtype, null);
    }

    @Test
    void aJoinOverTheAllocationBudgetIsStoppedInsideTheJoinAndThePackDecidesOn() throws Exception {
        // Given a join of four unpinned card patterns (26^4 combinations), admitted by loosened rule budgets,
        // and a decision budget of 16 MB
        Budgets.use(new Budgets(Long.MAX_VALUE, Long.MAX_VALUE, 65_536, 16L * 1024 * 1024, 60_000, 3, 120, Long.MAX_VALUE));
        RuleBundle bundle = withRule("four cards", """
                    Message( subtype == "costly.join" )
                    AgentCard()
                    AgentCard()
                    AgentCard()
                    AgentCard()
                """);

        // When a message the rule matches is decided
        EvaluationTooCostlyException e = assertThrows(EvaluationTooCostlyException.class,
                () -> Packs.BROKER.decide(bundle, message("costly.join"), false));

        // Then the watchdog stopped it over the allocation budget, naming the flag, and left the thread fit for
        // blocking work (Thread.stop interrupts first; a set flag would close the next file channel it used)
        assertTrue(e.getMessage().contains("--max-decision-mb"), e.getMessage());
        assertFalse(Thread.currentThread().isInterrupted());

        // And the pack goes on deciding other messages with fresh sessions, and that one again the same way
        assertEquals("trade messages go to VP Trading",
                Packs.BROKER.decide(bundle, message("trade.executed"), false).decidedBy().name());
        assertThrows(EvaluationTooCostlyException.class, () -> Packs.BROKER.decide(bundle, message("costly.join"), false));
    }

    @Test
    void aPatternOverTheCpuBudgetIsStoppedInsideTheMatch() throws Exception {
        // Given a pattern of a hundred copies (inside the text bounds) and a decision budget of 50 ms of CPU
        Budgets.use(new Budgets(Long.MAX_VALUE, Long.MAX_VALUE, 65_536, 1L << 30, 50, 3, 120, Long.MAX_VALUE));
        RuleBundle bundle = withRule("a hundred copies", "    Message( subtype matches \"(.*){100}z\" )");

        // When a message with a 60,000-character subtype is decided (about a third of a second of matching)
        EvaluationTooCostlyException e = assertThrows(EvaluationTooCostlyException.class,
                () -> Packs.BROKER.decide(bundle, message("a".repeat(60_000)), false));

        // Then it was stopped over the CPU budget
        assertTrue(e.getMessage().contains("--max-decision-cpu-ms"), e.getMessage());
    }

    @Test
    void aConditionRunningOnPastTheDeadlineIsStoppedInsideIt() throws Exception {
        // Given one constraint of twelve patterns of a hundred copies, none of which a run of "a" matches, so that
        // each is tried to the end (seconds of matching, all inside one condition, where a halt is never seen),
        // admitted by loosened rule budgets, and no CPU budget to speak of
        Budgets.use(new Budgets(Long.MAX_VALUE, Long.MAX_VALUE, 65_536, 1L << 30, 600_000, 3, 120, Long.MAX_VALUE));
        StringBuilder when = new StringBuilder("    Message( subtype matches \"(.*){100}z\"");
        for (char c = 'y'; c > 'n'; c--) {
            when.append(" || subtype matches \"(.*){100}").append(c).append("\"");
        }
        RuleBundle bundle = withRule("twelve patterns in one condition", when.append(" )").toString());

        // When a request with a deadline of 50 ms decides a 60,000-character subtype
        String subtype = "a".repeat(60_000);
        EvaluationTooCostlyException e = assertThrows(EvaluationTooCostlyException.class, () -> Deadline.within(
                System.nanoTime() + 50_000_000L, () -> Packs.BROKER.decide(bundle, message(subtype), false)));

        // Then it was stopped once it ran on past the deadline (CPU time cannot outrun the deadline's wall time)
        assertTrue(e.getMessage().contains("past the request's deadline"), e.getMessage());
    }

    @Test
    void anExplainedPatternIsMatchedInLinearTime() throws Exception {
        // Given forty ".*" in a row, which Java's backtracking matcher takes days over for a fourteen-character
        // text, and RE2 reads in one pass
        RuleBundle bundle = withRule("forty stars", "    Message( subtype matches \"" + ".*".repeat(40) + "Z\" )");

        // When a message is decided with its explanation (which evaluates every rule's conditions itself)
        Decision<?> d = Packs.BROKER.decide(bundle, message("trade.executed"), true);

        // Then the explanation is there, and says the pattern did not match
        assertEquals("trade messages go to VP Trading", d.decidedBy().name());
        assertEquals(Evaluation.Status.NOT_MATCHED, d.evaluation().considered("forty stars").status());
    }

    @Test
    void anOrdinaryDecisionIsNeverStopped() throws Exception {
        // Given the shipped rules, warmed up, and the tightest decision budgets the flags allow
        RuleBundle bundle = TestBundles.compile(TestBundles.RULES);
        Packs.BROKER.decide(bundle, message("trade.executed"), false);
        Budgets.use(new Budgets(100_000, 50_000_000, 65_536, 1024 * 1024, 10, 3, 120, Long.MAX_VALUE));

        // When many ordinary messages are decided, each well under a watchdog tick
        for (int i = 0; i < 2_000; i++) {
            assertEquals("trade messages go to VP Trading",
                    Packs.BROKER.decide(bundle, message("trade.executed"), false).decidedBy().name());
        }
    }
}
