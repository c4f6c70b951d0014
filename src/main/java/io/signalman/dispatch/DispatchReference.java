package io.signalman.dispatch;

/** The dispatch pack's reference data: its agents, its config, and what it reads from its own DRL. */
public record DispatchReference(AgentRoster agents, DispatchConfig config, DispatchRuleIndex rules) {
}
