package io.signalman.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash harness, short, in {@code make test} (the build makes the jar before the tests, since
 * {@code bin/signalman} runs it, and this class runs beside the others): three rounds of kill -9 under load, one in each fsync mode, and nothing acknowledged
 * lost. {@code make crash-test} runs it long. {@code -Dcrash.seed=N} replays a seed.
 */
class CrashIT {

    @TempDir
    Path dir;

    @Test
    void killMinus9UnderLoadInEveryFsyncModeLosesNothingAcknowledged() throws Exception {
        long seed = Long.getLong("crash.seed", System.nanoTime());
        CrashHarness.Result r = CrashHarness.run(CrashHarness.options(3, 1_000, 3_000, seed, dir), System.out);
        assertTrue(r.acknowledged().getOrDefault("decisions", 0) > 0 && r.acknowledged().getOrDefault("transitions", 0) > 0
                && r.acknowledged().getOrDefault("turns", 0) > 0, "the load did not reach every stateful pack: " + r.acknowledged());
        assertEquals(0, r.losses(), "seed " + seed + ": " + String.join("\n", r.lines()));
    }
}
