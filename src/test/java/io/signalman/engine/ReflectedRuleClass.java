package io.signalman.engine;

/**
 * Stands in for a generated rule class in {@link DefenceInDepthTest}: defined afresh under a rule
 * class loader and called reflectively, as Drools calls its generated classes.
 */
public final class ReflectedRuleClass {

    public ReflectedRuleClass() {
        // Drools instantiates generated classes through their public no-argument constructor.
    }

    public int twice(int value) {
        return value * 2;
    }
}
