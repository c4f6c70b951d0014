package io.signalman.broker;

import io.signalman.engine.Phase;
import io.signalman.engine.Tier;

/** The broker's agenda groups, in focus order: one rule routes, then fan-out rules add recipients. */
public enum BrokerTier implements Tier {
    ROUTE, FAN_OUT;

    @Override
    public Phase.Kind kind() {
        return this == FAN_OUT ? Phase.Kind.ADDITIVE : Phase.Kind.FIRST_MATCH;
    }
}
