package io.signalman.engine;

/** Rules kept firing past the platform's bound: a rule re-activates itself. */
public final class RunawayRulesException extends RuntimeException {

    private final transient RuleInfo lastFired;

    public RunawayRulesException(int firings, RuleInfo lastFired) {
        super("rules fired " + firings + " times for one decision; a rule keeps re-activating itself"
                + (lastFired == null ? "" : " (last: \"" + lastFired.name() + "\" at " + lastFired.file() + ":" + lastFired.line() + ")"));
        this.lastFired = lastFired;
    }

    public RuleInfo lastFired() {
        return lastFired;
    }
}
