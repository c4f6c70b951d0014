package io.signalman.fsm;

import io.signalman.json.Payload;
import io.signalman.json.ReadsPayload;
import io.signalman.rulelang.RuleVocabulary;

/**
 * The fact for the action being applied. Guards read its payload:
 * {@code Action( name == "review", number("quality") >= 0.7 )}.
 */
@RuleVocabulary
public record Action(String name, Payload payload) implements ReadsPayload {
}
