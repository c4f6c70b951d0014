package io.signalman.signals;

import io.signalman.rulelang.RuleVocabulary;

/**
 * The fact strategy-tier routes test: the agent's FSM instance (the one whose id is the agent's
 * id), present only when the agent has one.
 */
@RuleVocabulary
public record AgentFsm(String agent, String machine, String state) {
}
