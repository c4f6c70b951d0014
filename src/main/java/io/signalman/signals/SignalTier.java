package io.signalman.signals;

import io.signalman.engine.Tier;
import java.util.Arrays;

/** The three tiers of signal routing, in order of authority: the first with a match decides. */
public enum SignalTier implements Tier {
    STRATEGY, AGENT, PLUGIN;

    /** The tier whose agenda group a deciding rule is in. */
    static SignalTier of(String agendaGroup) {
        return Arrays.stream(values()).filter(t -> t.agendaGroup().equals(agendaGroup)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no signal tier \"" + agendaGroup + "\""));
    }
}
