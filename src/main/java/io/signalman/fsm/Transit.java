package io.signalman.fsm;

import io.signalman.engine.Collector;
import io.signalman.rulelang.RuleVocabulary;

/** The FSM pack's {@code decide}: a transition rule names its target, {@code decide.to("done")}. */
@RuleVocabulary
public final class Transit implements Collector {

    private String target;

    @Override
    public void reset() {
        target = null;
    }

    public void to(String state) {
        target = state;
    }

    String target() {
        return target;
    }
}
