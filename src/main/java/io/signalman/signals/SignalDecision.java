package io.signalman.signals;

/**
 * Where a signal goes: the action the deciding route chose and the tier it was in, or
 * unrouted when no route matched (then action and tier are null).
 */
public record SignalDecision(RouteAction.Chosen action, SignalTier tier, boolean unrouted) {

    static final SignalDecision UNROUTED = new SignalDecision(null, null, true);

    /** The action's type ({@code continue}, {@code transition}, ...), or null when unrouted. */
    public String actionType() {
        return action == null ? null : action.type();
    }

    /** The action's value (a transition's target, a custom action's name), or null. */
    public String actionValue() {
        return action == null ? null : action.value();
    }
}
