package io.signalman.fsm;

import com.fasterxml.jackson.databind.JsonNode;

/** One action applied to one instance, with the state it was decided from. */
public record FsmStep(String instance, String action, JsonNode payload, FsmInstance stateBefore) {
}
