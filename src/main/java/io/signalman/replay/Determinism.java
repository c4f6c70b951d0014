package io.signalman.replay;

import java.util.Locale;

/**
 * Which replayed records the invariants that decide a record a second time
 * ({@link io.signalman.engine.Invariant#decidesAgain()}: determinism) are checked on; every other
 * invariant is checked on every record whatever this says.
 *
 * <p>NOTE(perf): deciding a record again costs as much as replaying it, so checking determinism on
 * every record doubled the cost of a replay. A sample keeps the check at a sixty-fourth of that.
 * The sample is chosen by a hash of the record's archive position ({@link Firsts#position}), not
 * by the order records are met: two runs, any thread count and every member of a cluster (whose
 * shares keep the archive's file indexes) check the same records, so their reports agree.
 */
public enum Determinism {

    /** Every record: the reload gate, {@code --accept}, and {@code --determinism all}. */
    ALL,
    /** One record in {@link #SAMPLE_ONE_IN}, by archive position: a replay's default. */
    SAMPLE;

    /** One record in this many is checked by {@link #SAMPLE} (a power of two: the hash's low bits pick). */
    public static final int SAMPLE_ONE_IN = 64;

    /** Whether the record at this archive position has its determinism checked. */
    public boolean checks(long position) {
        return this == ALL || (mix(position) & (SAMPLE_ONE_IN - 1)) == 0;
    }

    /**
     * The SplitMix64 finaliser: neighbouring positions (line n and n + 1 of a file, or line n of
     * two files) spread over the whole range, so the low bits of the result are a fair sample.
     */
    static long mix(long position) {
        long z = position + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The flag's value ({@code all} or {@code sample}) as {@code --determinism} takes it. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code --determinism all|sample}; anything else is refused with the values it takes. */
    public static Determinism of(String flag) {
        for (Determinism d : values()) {
            if (d.flag().equals(flag == null ? null : flag.trim().toLowerCase(Locale.ROOT))) {
                return d;
            }
        }
        throw new IllegalArgumentException("--determinism must be all or sample, not \"" + flag + "\"");
    }
}
