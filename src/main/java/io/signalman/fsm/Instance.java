package io.signalman.fsm;

import io.signalman.rulelang.RuleVocabulary;

/** The fact for the FSM instance an action is applied to: which machine, in which state. */
@RuleVocabulary
public record Instance(String id, String machine, String state) {
}
