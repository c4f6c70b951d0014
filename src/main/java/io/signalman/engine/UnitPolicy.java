package io.signalman.engine;

/**
 * How a pack is cut into compile units. A small pack is one unit, compiled as a whole (one build
 * costs about 0.1 s on top of its rules, so splitting a small pack would only add builds). A
 * pack of at least {@code splitAtRules} rules, whose files declare nothing their compiled code
 * must share (see {@link DrlFile#separable()}), is cut per file, and a file of more than
 * {@code maxRulesPerUnit} rules into consecutive runs of rules; units compile on at most
 * {@code threads} threads.
 */
public record UnitPolicy(int splitAtRules, int maxRulesPerUnit, int threads) {

    /**
     * NOTE(perf): measured on the 2-core project machine, the executable model costs about 2 ms
     * a rule plus about 0.1 s a build, warm: a 1,000-rule file in four units on two threads
     * builds in about half the time of one unit, and a pack of a hundred rules is where cutting
     * starts to pay.
     */
    public static final UnitPolicy DEFAULT = new UnitPolicy(100, 256,
            Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));

    public UnitPolicy {
        if (splitAtRules < 0 || maxRulesPerUnit < 1 || threads < 1) {
            throw new IllegalArgumentException("unit policy out of range: " + splitAtRules + ", " + maxRulesPerUnit
                    + ", " + threads);
        }
    }
}
