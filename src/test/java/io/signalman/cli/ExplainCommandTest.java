package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code signalman explain}: why a decision came out as it did, in the analyst's words. */
class ExplainCommandTest {

    @TempDir
    Path tmp;

    @Test
    void explainingADispatchShowsTheSessionScopeBehindItsKey() throws Exception {
        // Given a message from an identity-linked sender (vip-alice, through slack:u777)
        Path input = Files.writeString(tmp.resolve("message.json"),
                "{\"channel\": \"slack\", \"space\": {\"type\": \"workspace\", \"id\": \"T001\"}, \"sender\": \"U777\"}");

        CliRunner.Result r = CliRunner.run("explain", "dispatch", input.toString(), "--rules", "rules");

        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("session_scope: {\"agent\":\"concierge\",\"channel\":\"slack\",\"account\":\"default\","
                + "\"sender\":\"vip-alice\"}"), r.out());
        assertTrue(r.out().contains("rules considered, in firing order:"), r.out());
    }
}
