package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.InputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The replay path's parse reads what replay uses and skips the rest; the whole parse, which
 * {@code --accept} writes back, keeps everything.
 */
class RecordParserTest {

    @Test
    void theReplayParseKeepsWhatReplayReadsAndLeavesOutTheEndpointRevisionAndFiredRules() throws Exception {
        // Given every record of the seed's stateful and stateless histories
        for (String pack : List.of("broker", "handoff", "fsm", "dispatch")) {
            for (String line : Files.readAllLines(TestBundles.FIXTURES.resolve(pack).resolve("history.jsonl"))) {
                byte[] bytes = line.getBytes(StandardCharsets.UTF_8);

                // When it is parsed whole and for replay
                DecisionRecord whole = RecordParser.parse(bytes, 0, bytes.length);
                DecisionRecord replay = RecordParser.parseForReplay(bytes, 0, bytes.length);

                // Then what selection, deciding, comparing and the reports read is the same
                assertEquals(whole.decisionId(), replay.decisionId());
                assertEquals(whole.at(), replay.at());
                assertEquals(whole.pack(), replay.pack());
                assertEquals(whole.arm(), replay.arm());
                assertEquals(whole.input(), replay.input());
                assertEquals(whole.stateBefore(), replay.stateBefore());
                assertEquals(whole.rule(), replay.rule());
                whole.decision().fieldNames().forEachRemaining(f -> {
                    if (!f.equals("rules_fired") && !f.equals("reason")) {
                        assertEquals(whole.decision().get(f), replay.decision().get(f), pack + " " + f);
                    }
                });
                // and what replay never reads is left out of its parse, but kept by the whole one
                assertTrue(whole.endpoint() != null && whole.rulesRevision() != null, line);
                assertNull(replay.endpoint());
                assertNull(replay.rulesRevision());
                assertFalse(replay.decision().has("rules_fired"));
            }
        }
    }

    @Test
    void anEndpointOrRevisionThatIsNoTextStillMakesTheRecordUnreadable() {
        // Given records whose skipped header fields have the wrong type
        byte[] endpoint = ("{\"decision_id\":\"d\",\"pack\":\"broker\",\"endpoint\":{\"a\":1},\"input\":{},\"decision\":{}}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] revision = ("{\"decision_id\":\"d\",\"pack\":\"broker\",\"rules_revision\":7,\"input\":{},\"decision\":{}}")
                .getBytes(StandardCharsets.UTF_8);

        // When they are parsed for replay, then the record is unreadable, naming the field, as the whole parse says
        InputException e = assertThrows(InputException.class, () -> RecordParser.parseForReplay(endpoint, 0, endpoint.length));
        assertEquals("endpoint", e.field());
        InputException r = assertThrows(InputException.class, () -> RecordParser.parseForReplay(revision, 0, revision.length));
        assertEquals("rules_revision", r.field());
        assertEquals(r.getMessage(), assertThrows(InputException.class,
                () -> RecordParser.parse(revision, 0, revision.length)).getMessage());
    }
}
