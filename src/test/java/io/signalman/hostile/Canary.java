package io.signalman.hostile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every payload of the hostile-rule corpus ({@code src/test/resources/hostile-rules}) calls
 * when it runs: it counts, and leaves a file behind as a real payload would. A test reads both
 * before and after a stage; a payload that ran anywhere in that JVM shows.
 *
 * <p>It lives in the test classes only and is not part of any pack's vocabulary: Signalman's rule
 * checker, its check of the generated Java and its rule class loader must each keep a rule from
 * reaching it, while raw Drools, fed the same file, calls it (which proves the payload is live).
 */
public final class Canary {

    /**
     * Where the file is left: the build's own folder, so a run never writes outside it, one file
     * per JVM, so a payload run on purpose in one test JVM (raw Drools, proving a payload live)
     * never shows as a trip in another that runs beside it.
     */
    public static final Path FILE = Path.of("target", "hostile-canary-" + ProcessHandle.current().pid());

    private static final AtomicInteger TRIPS = new AtomicInteger();

    private Canary() {
    }

    /** The payload: returns text so that it fits into a string concatenation, a comparison or a call. */
    public static String trip() {
        TRIPS.incrementAndGet();
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, "a hostile rule ran");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "tripped";
    }

    /** How many times any payload ran in this JVM. */
    public static int trips() {
        return TRIPS.get();
    }

    /** Forgets a file left by an earlier payload (the count stays: compare before and after). */
    public static void reset() {
        try {
            Files.deleteIfExists(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean fileLeft() {
        return Files.exists(FILE);
    }
}
