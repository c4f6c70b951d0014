package io.signalman.signals;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.fsm.FsmInstance;

/** One signal for one agent, with the agent's FSM state when it has an instance (else null). */
public record SignalStep(String agent, String kind, JsonNode payload, FsmInstance fsm) {
}
