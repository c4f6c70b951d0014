package io.signalman.engine;

import io.signalman.rulelang.Vocabulary;
import java.util.function.Supplier;

/**
 * What every pack holds the same way: its shape (name, phases, first-match group), the
 * vocabulary its rules may name, and the collector its rules decide through (a fresh one per
 * session, whatever the reference data). A pack extends this and says only what is its own.
 */
public abstract class PackBase<I, D> implements DecisionPack<I, D> {

    private final PackShape shape;
    private final Vocabulary vocabulary;
    private final Supplier<? extends Collector> collector;

    protected PackBase(PackShape shape, Vocabulary vocabulary, Supplier<? extends Collector> collector) {
        this.shape = shape;
        this.vocabulary = vocabulary;
        this.collector = collector;
    }

    @Override
    public final PackShape shape() {
        return shape;
    }

    @Override
    public final Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public final Collector newCollector(ReferenceData reference) {
        return collector.get();
    }
}
