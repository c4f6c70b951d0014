package io.signalman.signals;

import io.signalman.json.Payload;
import io.signalman.json.ReadsPayload;
import io.signalman.rulelang.RuleVocabulary;

/**
 * The fact for the signal being routed: which agent received it, its kind ({@code user_message},
 * {@code tool_result}, {@code stop}, {@code timer} or {@code custom:<name>}, compared exactly), and
 * its payload, read through {@code has}, {@code text}, {@code number}, {@code flag}.
 */
@RuleVocabulary
public record Signal(String agent, String kind, Payload payload) implements ReadsPayload {
}
