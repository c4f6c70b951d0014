package io.signalman.trials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** Which arm a key falls in: the same every time, and a key inside at P% is inside at every larger P. */
class BucketsTest {

    @Property
    void raisingThePercentOnlyAddsKeys(@ForAll @StringLength(max = 40) String key, @ForAll @DoubleRange(min = 0, max = 100) double p,
                                       @ForAll @DoubleRange(min = 0, max = 100) double q) {
        double low = Math.min(p, q);
        double high = Math.max(p, q);
        if (Buckets.inside("01TRIAL", key, low)) {
            assertTrue(Buckets.inside("01TRIAL", key, high), key + " left the candidate's bucket going from " + low + "% to " + high + "%");
        }
    }

    @Test
    void noKeyIsInsideAtZeroAndEveryKeyIsInsideAtAHundred() {
        for (int i = 0; i < 1000; i++) {
            assertTrue(!Buckets.inside("01TRIAL", "agent-" + i, 0));
            assertTrue(Buckets.inside("01TRIAL", "agent-" + i, 100));
        }
    }

    @Test
    void aShareOfKeysIsAboutThatShareAndAnotherTrialDrawsOtherKeys() {
        int inA = 0;
        int both = 0;
        for (int i = 0; i < 10_000; i++) {
            boolean a = Buckets.inside("01TRIAL-A", "agent-" + i, 10);
            inA += a ? 1 : 0;
            both += a && Buckets.inside("01TRIAL-B", "agent-" + i, 10) ? 1 : 0;
        }
        assertTrue(inA > 900 && inA < 1100, "about 10% of 10,000 keys: " + inA);
        assertTrue(both > 50 && both < 150, "about 1% in both trials' 10%: " + both);
    }

    @Test
    void aKeysBucketIsFixedByTheTrialAndTheKey() {
        assertEquals(Buckets.bucket("01TRIAL", "foresight"), Buckets.bucket("01TRIAL", "foresight"));
        assertEquals(Buckets.hash("01TRIAL", "foresight"), Buckets.hash("01TRIAL", "foresight"));
    }
}
