package io.signalman.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrTopTest {

    @TempDir
    Path dir;

    private static volatile long sink;

    @Test
    void aMethodThatKeepsTheThreadBusyLeadsBothRankings() throws Exception {
        // Given a recording of this thread spending most of a second in one method
        Path file = dir.resolve("busy.jfr");
        String thread = Thread.currentThread().getName();
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.start();
            spin(Duration.ofMillis(800));
            r.stop();
            r.dump(file);
        }

        // When it is summarized for this thread alone
        ObjectNode s = JfrTop.summary(file, 5, thread::equals);

        // Then the busy method is on top by self time, and in the top two by Signalman's total with most samples (its
        // caller holds every sample it does, and any sample taken outside it, so it may rank first)
        assertTrue(s.get("samples").asInt() > 10, s.toString());
        JsonNode total = null;
        for (int i = 0; i < 2; i++) {
            if ("io.signalman.bench.JfrTopTest.spin".equals(s.get("total").get(i).get("frame").asText())) {
                total = s.get("total").get(i);
            }
        }
        assertTrue(total != null, s.toString());
        assertTrue(total.get("share").asDouble() > 0.5, s.toString());
        assertEquals("io.signalman.bench.JfrTopTest.spin", s.get("self").get(0).get("frame").asText(), s.toString());
        assertTrue(JfrTop.lines(s, "self", 1).contains("JfrTopTest.spin"));
        // and the test method calling it counts in the total, never in self time
        assertTrue(s.get("total").toString().contains("aMethodThatKeepsTheThreadBusyLeadsBothRankings"), s.toString());
        assertTrue(!s.get("self").toString().contains("aMethodThatKeepsTheThreadBusyLeadsBothRankings"), s.toString());
    }

    /** Arithmetic only, no calls, so the samples land in this method's own frame. */
    private static void spin(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }
}
