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
     * about 0.1 s besides its rules, so cutting a large file into more runs buys little for a
     * whole-file edit and costs a little. What runs buy is the one-rule edit, which rebuilds only
     * its run. For the 1,015-rule file (medians of five, one run each, 2026-11-26): runs of at
     * most 512 rules, whole file 3.84 s and one rule 1.48 s (39%); of 128, 3.34 s and 0.69 s
     * (21%); of 64, 3.56 s and 0.46 s (13%). The whole-file figures are within the machine's
     * noise of each other (bare Drools moved from 1.43 to 1.83 s between the same runs), the
     * one-rule ones are not. A 1,000-rule pack in ten files reloads in about half a second after a
     * one-file edit.
     */
    public static final UnitPolicy DEFAULT = new UnitPolicy(100, 64,
            Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));

    public UnitPolicy {
        if (splitAtRules < 0 || maxRulesPerUnit < 1 || threads < 1) {
            throw new IllegalArgumentException("unit policy out of range: " + splitAtRules + ", " + maxRulesPerUnit
                    + ", " + threads);
        }
    }
}
