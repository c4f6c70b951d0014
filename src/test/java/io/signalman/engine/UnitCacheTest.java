package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The compile cache keeps what the last two compiles used, and nothing else, however many compiles there are. */
class UnitCacheTest {

    @Test
    void aUnitUsedByTheLastCompileOrTheOneBeforeIsKeptAndAnOlderOneForgotten() {
        // Given a unit built by one compile
        UnitCache cache = new UnitCache();
        cache.put(built("a"));
        cache.endCompile();

        // When the next compile does not use it, it is still there for the one after
        cache.put(built("b"));
        cache.endCompile();
        assertNotNull(cache.use("a"));
        cache.endCompile();

        // And once two compiles in a row have not used it, it is gone
        cache.endCompile();
        cache.endCompile();
        assertNull(cache.use("a"));
    }

    @Test
    void theCacheHoldsAtMostTheUnitsOfTwoCompilesOverAThousandCompiles() {
        // Given a thousand compiles of ten units, one of which changes every time
        UnitCache cache = new UnitCache();
        int[] version = new int[10];
        for (int round = 0; round < 1_000; round++) {
            version[round % 10]++;
            for (int u = 0; u < 10; u++) {
                String key = "unit " + u + " version " + version[u];
                if (cache.use(key) == null) {
                    cache.put(built(key));
                }
            }
            cache.endCompile();

            // Then after each, it holds this compile's ten units and at most the one it replaced
            assertTrue(cache.size() <= 11, "round " + round + ": " + cache.size());
        }
        assertEquals(11, cache.size());
    }

    private static UnitBuilder.Built built(String key) {
        return new UnitBuilder.Built(key, List.of());
    }
}
