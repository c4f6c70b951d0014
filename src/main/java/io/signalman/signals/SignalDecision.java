package io.signalman.signals;

/**
 * Where a signal goes (SPEC 4.2): an action with its value, the tier that decided, or unrouted
 * when no route matched (then action and tier are null).
 */
public record SignalDecision(String actionType, String actionValue, String tier, boolean unrouted) {

    static SignalDecision unroutedSignal() {
        return new SignalDecision(null, null, null, true);
    }
}
