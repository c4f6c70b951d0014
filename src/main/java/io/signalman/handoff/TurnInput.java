package io.signalman.handoff;

import java.util.Objects;

/**
 * One decision's input: an agent's turn in a conversation, with the state the router found the
 * conversation in. Replay re-decides from the recorded {@code state_before}, so the same input
 * always gets the same step.
 */
public record TurnInput(String conversationId, String agent, String response, int toolCalls, ConversationState state) {

    public TurnInput {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(response, "response");
    }

    public TurnInput withState(ConversationState s) {
        return new TurnInput(conversationId, agent, response, toolCalls, s);
    }
}
