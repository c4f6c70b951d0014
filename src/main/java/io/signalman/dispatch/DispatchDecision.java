package io.signalman.dispatch;

import java.util.Objects;

/**
 * Where an inbound message goes: the agent, the normalized channel and account, which
 * rule chose ({@code default}, {@code dispatch.rule} or {@code dispatch.rule:<name>}), the session
 * policy, key and scope (what the key was made of), and the model.
 */
public record DispatchDecision(String agentId, String channel, String accountId, String matchedBy,
                               SessionPolicy sessionPolicy, String sessionKey, SessionScope sessionScope,
                               ModelChoice model) {

    public DispatchDecision {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(matchedBy, "matchedBy");
        Objects.requireNonNull(sessionKey, "sessionKey");
        Objects.requireNonNull(sessionScope, "sessionScope");
    }
}
