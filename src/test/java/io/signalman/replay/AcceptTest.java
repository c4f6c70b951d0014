package io.signalman.replay;

import static io.signalman.TestBundles.BROKER_HISTORY;
import static io.signalman.TestBundles.TOOL_RULE;
import static io.signalman.TestBundles.copyOfBrokerHistory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replay --accept} changes only what changed: the diff shows exactly the changed decisions. */
class AcceptTest {


    @TempDir
    static Path tmp;
    private static Path changedRules;

    @BeforeAll
    static void changeOneRule() {
        changedRules = TestBundles.copyOfRulesWithToolSmith(tmp.resolve("changed"));
    }

    @Test
    void onlyTheChangedRecordsAreRewrittenAndEveryOtherLineIsKeptByteForByte() throws Exception {
        Path archive = copyOfBrokerHistory(tmp.resolve("plain/history.jsonl"));
        List<String> before = Files.readAllLines(BROKER_HISTORY);

        CliRunner.Result accepted = CliRunner.run("replay", "--quiet", "--rules", changedRules.toString(), "--accept",
                archive.toString());

        assertEquals(0, accepted.code(), accepted.out() + accepted.err());
        List<String> after = Files.readAllLines(archive);
        assertEquals(before.size(), after.size());
        int changed = 0;
        for (int i = 0; i < before.size(); i++) {
            JsonNode old = Json.parse(before.get(i));
            if (!TOOL_RULE.equals(old.path("decision").path("rule").asText())) {
                assertEquals(before.get(i), after.get(i), "line " + (i + 1) + " is not a changed decision");
                continue;
            }
            changed++;
            JsonNode now = Json.parse(after.get(i));
            assertNotEquals(old.get("rules_revision"), now.get("rules_revision"));
            assertEquals(List.of("tool-smith", "sr-director-tooling").stream().sorted().toList(),
                    sortedTexts(now.path("decision").path("primary_recipients")));
            ObjectNode sameRest = ((ObjectNode) now.deepCopy());
            sameRest.set("rules_revision", old.get("rules_revision"));
            sameRest.set("decision", old.get("decision"));
            assertEquals(old, sameRest, "only the decision and the revision of line " + (i + 1) + " change");
        }
        assertEquals(9, changed);
        assertTrue(accepted.out().contains("accepted " + changed + " changed decisions"), accepted.out());
        assertEquals(0, CliRunner.run("replay", "--quiet", "--rules", changedRules.toString(), archive.toString()).code());
    }

    @Test
    void aLineSealedWithItsChecksumIsRewrittenSealedAndOthersAreNot() throws Exception {
        // Given a history whose lines carry their checksum (a server's own log), and one whose lines do not
        Path sealed = tmp.resolve("sealed/history.jsonl");
        Files.createDirectories(sealed.getParent());
        StringBuilder b = new StringBuilder();
        for (String line : Files.readAllLines(BROKER_HISTORY)) {
            b.append(new String(io.signalman.datadir.RecordLine.seal(line.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        Files.writeString(sealed, b);

        // When the changed decisions are accepted
        CliRunner.Result accepted = CliRunner.run("replay", "--quiet", "--rules", changedRules.toString(), "--accept",
                sealed.toString());
        assertEquals(0, accepted.code(), accepted.out() + accepted.err());

        // Then every line still checks: the rewritten ones were sealed again
        for (String line : Files.readAllLines(sealed)) {
            byte[] bytes = line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(io.signalman.datadir.RecordLine.Check.SEALED, io.signalman.datadir.RecordLine.check(bytes, 0, bytes.length),
                    line);
        }
    }

    @Test
    void aCompressedArchiveIsAcceptedAndStaysCompressed() throws Exception {
        Path gz = ArchiveTest.gzip(Files.readAllBytes(BROKER_HISTORY), tmp.resolve("gz/history.jsonl.gz"));

        CliRunner.Result accepted = CliRunner.run("replay", "--quiet", "--rules", changedRules.toString(), "--accept",
                gz.toString());
        CliRunner.Result again = CliRunner.run("replay", "--quiet", "--rules", changedRules.toString(), gz.toString());

        assertEquals(0, accepted.code(), accepted.out() + accepted.err());
        assertEquals(0, again.code(), again.out());
        assertTrue(again.out().contains("replayed " + Files.readAllLines(BROKER_HISTORY).size() + " records"), again.out());
    }

    /**
     * On a single node the decision log is the write-ahead log of state: a record that moved an
     * instance carries the state the node stored. Accepting a new decision for it does not change
     * what the node stored, so a restart on the log still rebuilds what clients were told.
     */
    @Test
    void aRewrittenRecordKeepsTheStateItsNodeStoredAndItsTrace() throws Exception {
        // Given FSM records that moved an instance to revising, with the state the node stored and the
        // trace of the request that moved it ...
        Path archive = tmp.resolve("fsm/history.jsonl");
        Files.createDirectories(archive.getParent());
        List<String> lines = new java.util.ArrayList<>();
        int version = 0;
        for (String line : Files.readAllLines(TestBundles.FIXTURES.resolve("fsm/history.jsonl"))) {
            ObjectNode rec = (ObjectNode) Json.parse(line);
            if ("revising".equals(rec.path("decision").path("to").asText())) {
                ObjectNode value = ((ObjectNode) rec.get("state_before").deepCopy()).put("current_state", "revising");
                rec.set("state_after", Json.object().put("store", "fsm").put("id", rec.path("input").path("id").asText())
                        .put("version", ++version).set("value", value));
                rec.put("trace_id", String.format("%032x", version));
            }
            lines.add(Json.write(rec));
        }
        Files.write(archive, lines);
        // ... and rules under which those reviews pass instead
        Path lenient = TestBundles.copyOfRules(tmp.resolve("lenient"));
        TestBundles.edit(lenient.resolve("fsm/review-flow.drl"), "number(\"quality\") >= 0.7", "number(\"quality\") >= 0.2");

        // When the change is accepted
        CliRunner.Result accepted = CliRunner.run("replay", "--quiet", "--rules", lenient.toString(), "--accept",
                archive.toString());

        // Then a rewritten record has the new decision and still the state its node stored
        assertEquals(0, accepted.code(), accepted.out() + accepted.err());
        List<String> after = Files.readAllLines(archive);
        int rewritten = 0;
        for (int i = 0; i < lines.size(); i++) {
            JsonNode old = Json.parse(lines.get(i));
            if (!old.has("state_after") || lines.get(i).equals(after.get(i))) {
                continue;
            }
            rewritten++;
            JsonNode now = Json.parse(after.get(i));
            assertEquals("done", now.path("decision").path("to").asText(), after.get(i));
            assertEquals(old.get("state_after"), now.get("state_after"), "line " + (i + 1));
            assertEquals(old.get("state_before"), now.get("state_before"), "line " + (i + 1));
            assertEquals(old.get("trace_id"), now.get("trace_id"), "line " + (i + 1));
        }
        assertTrue(rewritten > 0, "some review passes under the lenient rules: " + accepted.out());
    }

    private static List<String> sortedTexts(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out.stream().sorted().toList();
    }
}
