package io.signalman.engine;

import io.signalman.rulelang.Vocabulary;

/**
 * What every pack holds the same way: its shape (name, phases, first-match group) and the
 * vocabulary its rules may name. A pack extends this and says only what is its own.
 */
public abstract class PackBase<I, D> implements DecisionPack<I, D> {

    private final PackShape shape;
    private final Vocabulary vocabulary;

    protected PackBase(PackShape shape, Vocabulary vocabulary) {
        this.shape = shape;
        this.vocabulary = vocabulary;
    }

    @Override
    public final PackShape shape() {
        return shape;
    }

    @Override
    public final Vocabulary vocabulary() {
        return vocabulary;
    }
}
