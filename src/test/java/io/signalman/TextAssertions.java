package io.signalman;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.function.Executable;

/** Assertions on text: what a table, a page or a command's output must say. */
public final class TextAssertions {

    private TextAssertions() {
    }

    /**
     * Fails unless {@code text} holds every one of {@code parts}; every part is checked, and the
     * failure names each one missing and shows the whole text.
     */
    public static void assertContains(String text, String... parts) {
        if (parts.length == 0) {
            throw new IllegalArgumentException("no part to look for");
        }
        assertAll(Arrays.stream(parts).map(part -> (Executable) () -> assertTrue(text.contains(part),
                () -> "missing \"" + part + "\" in:\n" + text)));
    }
}
