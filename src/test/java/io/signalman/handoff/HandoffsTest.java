package io.signalman.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The router's half of a handoff decision, against go-agentic's counting (seed 001, section 2). */
class HandoffsTest {

    @Test
    void aCrewWhoseOnlyAgentIsNotTerminalEndsItsFirstTurnHavingCountedTheAttemptedHandoff() {
        // Given a crew of one agent that is not terminal, and no signal in its turn
        Crew crew = new Crew("solo", "writer", 5, List.of(new Crew.Agent("writer", false, List.of(), false)), Map.of());
        ConversationState start = ConversationState.start(crew);

        // When the default handoff finds no one to hand over to
        Handoffs.Result r = Handoffs.apply(crew, start, "writer", new Step.Ruling(Step.Kind.DEFAULT_HANDOFF, null, null));

        // Then the conversation ends, and the attempted handoff is counted, as go-agentic's fallback counts it
        assertEquals(NextStep.Type.END, r.next().type());
        assertEquals(ConversationState.Status.ENDED, r.state().status());
        assertEquals(1, r.state().handoffCount());
    }
}
