package io.signalman.handoff;

import io.signalman.rulelang.RuleVocabulary;
import java.util.List;
import java.util.Objects;

/**
 * The fact handoff rules see for one agent turn: which crew and agent spoke, what it said, how
 * many tools it called, and the agent's behaviour from the crew file ({@code wait_for_signal},
 * {@code is_terminal}), so a condition reads {@code Turn( crew == "exam", agent == "teacher" )}.
 */
@RuleVocabulary
public record Turn(String crew, String agent, String response, int toolCalls, boolean waitsForSignal,
                   boolean terminal) {

    public Turn {
        Objects.requireNonNull(crew, "crew");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(response, "response");
    }

    /**
     * The signal as found in the response, for {@code $said : Said() from $turn.match("[QUESTION]")}:
     * a list of one when it occurs at any of the three levels, empty when it does not.
     */
    public List<Said> match(String signal) {
        SignalMatcher.Level level = SignalMatcher.match(signal, response);
        return level == null ? List.of() : List.of(new Said(signal, level));
    }

    /** True when the signal occurs in the response at any level. */
    public boolean says(String signal) {
        return SignalMatcher.match(signal, response) != null;
    }
}
