package io.signalman.engine;

/**
 * How a pack is cut into compile units. A small pack is one unit, compiled as a whole (one build
 * costs about 0.1 s on top of its rules, so splitting a small pack would only add builds). A
 * pack of at least {@code splitAtRules} rules, whose files declare nothing their compiled code
 * must share (see {@link DrlFile#separable()}), is cut per file, and a large file into runs of
 * at most {@code maxRulesPerUnit} consecutive rules ({@link DrlFile#runs}); units compile on at
 * most {@code threads} threads.
 */
public record UnitPolicy(int splitAtRules, int maxRulesPerUnit, int threads) {

    /**
     * NOTE(perf): measured with ReloadBench on the shared 2-core project machine, warm. One
     * executable-model build of 1,000 rules already keeps both cores busy (its process CPU time
     * is about twice its wall time: Drools generates rules in parallel), and every build costs
     * about 0.1 s besides its rules, so building the runs of a large file in parallel does not
     * make recompiling the whole file faster (2.4-2.5 s either way, medians of runs on a busy
     * machine; runs of at most 256 rules, six builds, were slower). Runs pay off when one rule
     * of a large file changes: about 1.1 s instead of 1.7 s. A 1,000-rule pack in ten files
     * reloads in about 0.4 s after a one-file edit.
     */
    public static final UnitPolicy DEFAULT = new UnitPolicy(100, 512,
            Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));

    public UnitPolicy {
        if (splitAtRules < 0 || maxRulesPerUnit < 1 || threads < 1) {
            throw new IllegalArgumentException("unit policy out of range: " + splitAtRules + ", " + maxRulesPerUnit
                    + ", " + threads);
        }
    }
}
