package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** How {@code signalman serve}'s flags become the server's configuration. */
class ServeCommandTest {

    @Test
    void theBenchEndpointsAreOffUnlessTheFlagAsksForThem() throws Exception {
        assertFalse(ServeCommand.config(ServeCommand.args(new String[] {"--port", "0"}, Map.of())).benchEndpoints());

        assertTrue(ServeCommand.config(ServeCommand.args(new String[] {"--port", "0", "--bench-endpoints"}, Map.of()))
                .benchEndpoints());
        assertTrue(ServeCommand.config(ServeCommand.args(new String[0], Map.of("SIGNALMAN_BENCH_ENDPOINTS", "true")))
                .benchEndpoints());
    }

    @Test
    void theHelpNamesTheBenchFlagAsBenchOnly() {
        CliRunner.Result r = CliRunner.run("serve", "--help");

        assertTrue(r.out().contains("[--bench-endpoints (serves POST /bench/echo for make bench; never in production)]"),
                r.out());
    }
}
