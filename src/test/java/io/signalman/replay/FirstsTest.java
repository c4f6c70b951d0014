package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A report's examples are the earliest records of the archive, whatever order threads saw them in. */
class FirstsTest {

    @Test
    void theEarliestPositionsAreKeptNotTheFirstSeen() {
        // Given a limit of two, and records offered latest first (as a thread late in the archive reports first)
        Firsts<String> firsts = new Firsts<>(2);
        firsts.offer(Firsts.position(1, 30), "file 1 line 30");
        firsts.offer(Firsts.position(1, 20), "file 1 line 20");
        firsts.offer(Firsts.position(0, 99), "file 0 line 99");
        firsts.offer(Firsts.position(1, 10), "file 1 line 10");

        // Then the two earliest by archive position are kept, in archive order
        assertEquals(List.of("file 0 line 99", "file 1 line 10"), firsts.values());
    }

    @Test
    void mergingTwoThreadsKeepsTheSameAsOneThreadWouldHave() {
        Firsts<String> a = new Firsts<>(3);
        Firsts<String> b = new Firsts<>(3);
        Firsts<String> one = new Firsts<>(3);
        for (int line : new int[] {9, 4, 7, 1}) {
            a.offer(Firsts.position(0, line), "a" + line);
            one.offer(Firsts.position(0, line), "a" + line);
        }
        for (int line : new int[] {3, 8, 2}) {
            b.offer(Firsts.position(1, line), "b" + line);
            one.offer(Firsts.position(1, line), "b" + line);
        }

        b.addAll(a);

        assertEquals(one.values(), b.values());
        assertEquals(List.of("a1", "a4", "a7"), b.values());
    }
}
