package io.signalman.handoff;

import io.signalman.rulelang.RuleVocabulary;
import java.util.Objects;

/** A signal found in a response, and the level at which the matcher found it. */
@RuleVocabulary
public record Said(String signal, SignalMatcher.Level level) {

    public Said {
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(level, "level");
    }
}
