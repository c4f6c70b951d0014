package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Decision ids are unique and sortable: monotonic ULIDs. */
class UlidTest {

    private static final String CROCKFORD = "[0-9A-HJKMNP-TV-Z]{26}";
    private static final long MILLIS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    @Test
    void anIdIs26CharactersOfCrockfordBase32() {
        assertTrue(new Ulid().generate(MILLIS).matches(CROCKFORD));
        assertTrue(Ulid.next().matches(CROCKFORD));
    }

    @Test
    void theFirstTenCharactersEncodeTheMilliseconds() {
        // 0 ms is ten zeros, and the largest 48-bit time fits without overflowing the first digit
        assertEquals("0000000000", new Ulid().generate(0).substring(0, 10));
        assertEquals("7ZZZZZZZZZ", new Ulid().generate((1L << 48) - 1).substring(0, 10));
    }

    @Test
    void tenThousandIdsFromOneGeneratorAreUniqueAndStrictlyIncreasing() {
        // Given one generator and a clock that advances every hundred ids
        Ulid ulid = new Ulid();
        Set<String> seen = new HashSet<>();
        String previous = "";

        // When ten thousand ids are generated
        for (int i = 0; i < 10_000; i++) {
            String id = ulid.generate(MILLIS + i / 100);

            // Then each sorts after the one before and none repeats
            assertTrue(id.matches(CROCKFORD), id);
            assertTrue(id.compareTo(previous) > 0, previous + " then " + id);
            assertTrue(seen.add(id), id);
            previous = id;
        }
    }

    @Test
    void idsInTheSameMillisecondAreStillIncreasing() {
        Ulid ulid = new Ulid();
        String previous = ulid.generate(MILLIS);
        for (int i = 0; i < 1_000; i++) {
            String id = ulid.generate(MILLIS);
            assertTrue(id.compareTo(previous) > 0, previous + " then " + id);
            assertEquals(previous.substring(0, 10), id.substring(0, 10));
            previous = id;
        }
    }

    @Test
    void aLaterMillisecondSortsAfter() {
        Ulid ulid = new Ulid();
        String earlier = ulid.generate(MILLIS);
        String later = ulid.generate(MILLIS + 1);
        String muchLater = ulid.generate(MILLIS + 86_400_000L);
        assertTrue(later.compareTo(earlier) > 0);
        assertTrue(muchLater.compareTo(later) > 0);
        // And a later millisecond sorts after any id of an earlier one, whatever its random part
        assertTrue(new Ulid().generate(MILLIS + 1).compareTo(new Ulid().generate(MILLIS)) > 0);
    }

    @Test
    void aClockThatGoesBackDoesNotBreakTheOrder() {
        Ulid ulid = new Ulid();
        String first = ulid.generate(MILLIS);
        String second = ulid.generate(MILLIS - 1_000);
        assertTrue(second.compareTo(first) > 0, first + " then " + second);
    }
}
