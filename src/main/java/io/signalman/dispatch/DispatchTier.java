package io.signalman.dispatch;

import io.signalman.engine.Phase;
import io.signalman.engine.Tier;

/** The dispatch pack's agenda groups, in focus order: one rule picks the agent, score rules add up. */
public enum DispatchTier implements Tier {
    DISPATCH, SCORE;

    @Override
    public Phase.Kind kind() {
        return this == SCORE ? Phase.Kind.ADDITIVE : Phase.Kind.FIRST_MATCH;
    }
}
