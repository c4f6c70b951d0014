package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.RuleBundle;
import io.signalman.handoff.ConversationState.Status;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pack's one decide, over the shipped rules: each kind of step, and the tier order. */
class HandoffPackTest {

    private static final RuleBundle RULES = TestBundles.shipped();

    static Decision<HandoffOutcome> turn(RuleBundle rules, ConversationState s, String agent, String response, int tools) {
        return Packs.HANDOFF.decide(rules, new TurnInput("c1", agent, response, tools, s), false);
    }

    static ConversationState at(String crew, String agent, int count) {
        return new ConversationState(crew, Status.RUNNING, agent, null, List.of(), count);
    }

    @Test
    void toolCallsRerunTheSameAgentEvenWhenItAlsoSignals() {
        Decision<HandoffOutcome> d = turn(RULES, at("exam", "teacher", 0), "teacher", "[QUESTION] [DONE]", 2);
        assertEquals(NextStep.Type.RERUN, d.outcome().next().type());
        assertEquals("teacher", d.outcome().next().agent());
        assertEquals(0, d.outcome().handoffCount());
        assertEquals("an agent that called tools runs again with their results", d.decidedBy().name());
    }

    @Test
    void theTeachersQuestionStartsTheQuestionPanel() {
        Decision<HandoffOutcome> d = turn(RULES, at("exam", "teacher", 0), "teacher", "Question 1: 2+2? [QUESTION]", 0);
        HandoffOutcome o = d.outcome();
        assertEquals(NextStep.Type.PARALLEL, o.next().type());
        assertEquals("parallel_question", o.next().group().id());
        assertEquals(List.of("student", "reporter"), o.next().pending());
        assertEquals("[QUESTION]", o.signal());
        assertEquals(SignalMatcher.Level.EXACT, o.matchLevel());
        assertEquals(1, o.handoffCount());
        assertEquals("parallel_question", o.stateAfter().group());
    }

    @Test
    void terminationWinsOverRoutingInOneResponse() {
        // the reporter says [OK] (routing) and [DONE] (termination) at once
        Decision<HandoffOutcome> d = turn(RULES, at("exam", "reporter", 3), "reporter", "[OK] noted. [done]", 0);
        assertEquals(NextStep.Type.TERMINATE, d.outcome().next().type());
        assertEquals("[DONE]", d.outcome().signal());
        assertEquals(SignalMatcher.Level.CASE_INSENSITIVE, d.outcome().matchLevel());
        assertEquals(Status.TERMINATED, d.outcome().stateAfter().status());
    }

    @Test
    void theVietnameseEndOfExamMatchesWhenNormalized() {
        Decision<HandoffOutcome> d = turn(RULES, at("exam", "teacher", 0), "teacher", "Hết giờ! [ KẾT  THÚC  THI ]", 0);
        assertEquals(NextStep.Type.AGENT, d.outcome().next().type());
        assertEquals("reporter", d.outcome().next().agent());
        assertEquals(SignalMatcher.Level.NORMALIZED, d.outcome().matchLevel());
    }

    @Test
    void anAgentThatWaitsForASignalPauses() {
        Decision<HandoffOutcome> d = turn(RULES, at("support", "tech", 1), "tech", "Can you send the logs?", 0);
        assertEquals(NextStep.Type.PAUSE, d.outcome().next().type());
        assertEquals(Status.PAUSED, d.outcome().stateAfter().status());
        assertNull(d.outcome().signal());
    }

    @Test
    void aTerminalAgentEnds() {
        Decision<HandoffOutcome> d = turn(RULES, at("support", "closer", 2), "closer", "Glad we could help.", 0);
        assertEquals(NextStep.Type.END, d.outcome().next().type());
        assertFalse(d.outcome().next().limitReached());
    }

    @Test
    void withoutASignalTheFirstHandoffTargetTakesOver() {
        Decision<HandoffOutcome> d = turn(RULES, at("support", "triage", 0), "triage", "Let me look.", 0);
        assertEquals(NextStep.Type.AGENT, d.outcome().next().type());
        assertEquals("billing", d.outcome().next().agent());
        assertEquals(1, d.outcome().handoffCount());
    }

    @Test
    void withoutSignalOrTargetsTheFirstOtherAgentInCrewOrderTakesOver() {
        // go-agentic's order: from the top of the crew, not from the agent's place
        Decision<HandoffOutcome> d = turn(RULES, at("exam", "student", 0), "student", "hmm", 0);
        assertEquals("teacher", d.outcome().next().agent());
        Decision<HandoffOutcome> last = turn(RULES, at("exam", "reporter", 0), "reporter", "hmm", 0);
        assertEquals("teacher", last.outcome().next().agent());
        Decision<HandoffOutcome> first = turn(RULES, at("exam", "teacher", 0), "teacher", "hmm", 0);
        assertEquals("student", first.outcome().next().agent());
    }

    @Test
    void theHandoffThatReachesTheLimitEndsTheConversationInstead() {
        Decision<HandoffOutcome> d = turn(RULES, at("support", "triage", 4), "triage", "[TECH]", 0);
        assertEquals(NextStep.Type.END, d.outcome().next().type());
        assertTrue(d.outcome().next().limitReached());
        assertEquals(5, d.outcome().handoffCount());
        assertEquals(5, d.outcome().maxHandoffs());
    }

    @Test
    void aRoutingSignalToAnAgentTheCrewNoLongerHasFallsBackToTheDefaultHandoff() throws Exception {
        // Seed section 8: replayed under crew data without tech, [TECH] cannot be followed.
        String crew = """
                {"name": "support", "entry_agent": "triage",
                 "agents": [{"id": "triage", "handoff_targets": ["billing"]}, {"id": "billing"}, {"id": "closer", "is_terminal": true}]}
                """;
        RuleBundle noTech = RULES.withReference(Map.of("handoff/support.json", crew.getBytes(StandardCharsets.UTF_8)));
        Decision<HandoffOutcome> d = turn(noTech, at("support", "triage", 0), "triage", "[TECH]", 0);
        assertEquals(NextStep.Type.AGENT, d.outcome().next().type());
        assertEquals("billing", d.outcome().next().agent());
        assertEquals("[TECH]", d.outcome().signal());
    }
}
