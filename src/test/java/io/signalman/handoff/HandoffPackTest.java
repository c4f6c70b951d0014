package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The pack's one decide, over the shipped rules: each kind of step, and the tier order. */
class HandoffPackTest {

    private static final RuleBundle RULES = TestBundles.shipped();

    static Decision<HandoffOutcome> turn(RuleBundle rules, ConversationState s, String agent, String response, int tools) {
        return Packs.HANDOFF.decide(rules, new TurnInput("c1", agent, response, tools, s), false);
    }

    static ConversationState at(String crew, String agent, int count) {
        return new ConversationState(crew, Status.RUNNING, agent, null, List.of(), count);
    }

    /**
     * A turn (the conversation's state before it, the agent answering, its response and tool calls) and
     * where it goes: the next step and agent, the count after it, the signal that decided it and how it
     * was found ({@code null}: none), the conversation's status after it, and the deciding rule.
     */
    private record Turned(String why, ConversationState before, String agent, String response, int tools, NextStep.Type next,
                          String nextAgent, int handoffs, String signal, SignalMatcher.Level level, Status after, String rule) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final String DEFAULT_HANDOFF = "without a signal the conversation goes to the default next agent";

    private static final List<Turned> TURNS = List.of(
            new Turned("tool calls rerun the same agent even when it also signals", at("exam", "teacher", 0), "teacher",
                    "[QUESTION] [DONE]", 2, NextStep.Type.RERUN, "teacher", 0, null, null, Status.RUNNING,
                    "an agent that called tools runs again with their results"),
            // the reporter says [OK] (routing) and [DONE] (termination) at once
            new Turned("termination wins over routing in one response", at("exam", "reporter", 3), "reporter",
                    "[OK] noted. [done]", 0, NextStep.Type.TERMINATE, "reporter", 3, "[DONE]", SignalMatcher.Level.CASE_INSENSITIVE,
                    Status.TERMINATED, "the reporter's done ends the exam"),
            new Turned("the Vietnamese end of exam matches when normalized", at("exam", "teacher", 0), "teacher",
                    "Hết giờ! [ KẾT  THÚC  THI ]", 0, NextStep.Type.AGENT, "reporter", 1, "[KẾT THÚC THI]",
                    SignalMatcher.Level.NORMALIZED, Status.RUNNING,
                    "the teacher ending the exam in Vietnamese hands over to the reporter"),
            new Turned("an agent that waits for a signal pauses", at("support", "tech", 1), "tech",
                    "Can you send the logs?", 0, NextStep.Type.PAUSE, "tech", 1, null, null, Status.PAUSED,
                    "an agent that waits for a signal pauses the conversation"),
            new Turned("a terminal agent ends", at("support", "closer", 2), "closer",
                    "Glad we could help.", 0, NextStep.Type.END, "closer", 2, null, null, Status.ENDED,
                    "a terminal agent ends the conversation"),
            new Turned("without a signal the first handoff target takes over", at("support", "triage", 0), "triage",
                    "Let me look.", 0, NextStep.Type.AGENT, "billing", 1, null, null, Status.RUNNING, DEFAULT_HANDOFF),
            // go-agentic's order: from the top of the crew, not from the agent's place
            new Turned("without signal or targets the first other agent in crew order takes over", at("exam", "student", 0),
                    "student", "hmm", 0, NextStep.Type.AGENT, "teacher", 1, null, null, Status.RUNNING, DEFAULT_HANDOFF),
            new Turned("the last agent of the crew, without signal or targets, hands over to the first", at("exam", "reporter", 0),
                    "reporter", "hmm", 0, NextStep.Type.AGENT, "teacher", 1, null, null, Status.RUNNING, DEFAULT_HANDOFF),
            new Turned("the first agent of the crew, without signal or targets, hands over to the second", at("exam", "teacher", 0),
                    "teacher", "hmm", 0, NextStep.Type.AGENT, "student", 1, null, null, Status.RUNNING, DEFAULT_HANDOFF));

    @ParameterizedTest(name = "{0}")
    @FieldSource("TURNS")
    void aTurnGoesWhereItsSignalOrTheCrewSays(Turned c) {
        Decision<HandoffOutcome> d = turn(RULES, c.before(), c.agent(), c.response(), c.tools());
        HandoffOutcome o = d.outcome();
        assertEquals(c.next(), o.next().type());
        assertEquals(c.nextAgent(), o.next().agent());
        assertFalse(o.next().limitReached());
        assertEquals(c.handoffs(), o.handoffCount());
        assertEquals(c.signal(), o.signal());
        assertEquals(c.level(), o.matchLevel());
        assertEquals(c.after(), o.stateAfter().status());
        assertEquals(c.rule(), d.decidedBy().name());
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
