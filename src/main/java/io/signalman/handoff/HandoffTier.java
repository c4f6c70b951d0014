package io.signalman.handoff;

import io.signalman.engine.Tier;

/**
 * The handoff pack's tiers, focused in this order: tool calls, then termination signals (so
 * termination beats routing whatever the saliences say), then routing signals, then the steps
 * taken when no signal matched.
 */
public enum HandoffTier implements Tier {
    TOOLS, TERMINATE, ROUTE, NO_SIGNAL
}
