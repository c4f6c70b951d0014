package io.signalman.handoff;

/**
 * One signal rule as written in the DRL, read by {@link SignalRules} for validation and for the
 * invariants: which crew's agent it listens to, the signal, and where it sends the conversation
 * ({@code target} is null for a termination signal).
 */
public record SignalRule(String rule, String file, int line, String crew, String agent, String signal, int signalLine,
                         String target, int targetLine) {

    public boolean terminates() {
        return target == null;
    }
}
