package io.signalman.fsm;

import io.signalman.engine.Tier;

/** The FSM pack's one agenda group: transition rules, one of which moves the instance. */
public enum FsmTier implements Tier {
    TRANSITION
}
