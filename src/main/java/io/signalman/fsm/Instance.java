package io.signalman.fsm;

/** The fact for the FSM instance an action is applied to: which machine, in which state. */
public record Instance(String id, String machine, String state) {
}
