package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.Json;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code signalman explain}: why a decision came out as it did, in the analyst's words: the shipped
 * example inputs, values in the explanation, --why-not, --help.
 */
class ExplainCommandTest {

    /** What a shipped rule says is pinned on the frozen seed copy, never on the analysts' live rules. */
    private static final String SEED_RULES = io.signalman.TestBundles.RULES.toString();

    @TempDir
    Path tmp;

    @Test
    void explainingADispatchShowsTheSessionScopeBehindItsKey() throws Exception {
        // Given a message from an identity-linked sender (vip-alice, through slack:u777)
        Path input = Files.writeString(tmp.resolve("message.json"),
                "{\"channel\": \"slack\", \"space\": {\"type\": \"workspace\", \"id\": \"T001\"}, \"sender\": \"U777\"}");

        CliRunner.Result r = CliRunner.run("explain", "dispatch", input.toString(), "--rules", SEED_RULES);

        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("session_scope: {\"agent\":\"concierge\",\"channel\":\"slack\",\"account\":\"default\","
                + "\"sender\":\"vip-alice\"}"), r.out());
        assertTrue(r.out().contains("rules considered, in firing order:"), r.out());
    }

    @Test
    void everyPackHasAnExampleInputThatExplains() {
        for (String pack : List.of("broker", "signals", "fsm", "dispatch", "handoff")) {
            File[] inputs = new File("examples/" + pack).listFiles((d, n) -> n.endsWith(".json"));
            assertTrue(inputs != null && inputs.length > 0, "examples/" + pack + " ships an input");
            for (File input : inputs) {
                CliRunner.Result r = CliRunner.run("explain", pack, input.getPath(), "--rules", "rules");
                assertEquals(0, r.code(), input + ": " + r.err());
                assertTrue(r.out().startsWith("decided by "), r.out());
            }
        }
    }

    @Test
    void eachUnmatchedRuleShowsTheConstraintThatFailedAndItsValue() {
        CliRunner.Result r = CliRunner.run("explain", "broker", "examples/broker/message.json", "--rules", SEED_RULES);

        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("did not match: priority == \"critical\" was false: priority is \"high\""), r.out());
    }

    @Test
    void whyNotAnswersForOneRule() throws Exception {
        CliRunner.Result r = CliRunner.run("explain", "fsm", "examples/fsm/action.json", "--rules", SEED_RULES,
                "--why-not", "a review of good quality is done");

        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("\"a review of good quality is done\" (fsm/review-flow.drl:"), r.out());
        assertTrue(r.out().contains("number(\"quality\") >= 0.7 was false: number(\"quality\") is 0.6"), r.out());

        CliRunner.Result json = CliRunner.run("explain", "fsm", "examples/fsm/action.json", "--rules", SEED_RULES, "--json",
                "--why-not", "a review of good quality is done");
        JsonNode whyNot = Json.parse(json.out()).get("why_not");
        assertEquals("number(\"quality\") >= 0.7", whyNot.get("failed").get("constraint").asText());
    }

    @Test
    void whyNotARuleThatDoesNotExistListsTheRules() {
        CliRunner.Result r = CliRunner.run("explain", "broker", "examples/broker/message.json", "--rules", SEED_RULES,
                "--why-not", "no such rule");

        assertEquals(1, r.code());
        assertTrue(r.err().contains("pack broker has no rule \"no such rule\""), r.err());
        assertTrue(r.err().contains("trade messages go to VP Trading"), r.err());
    }

    @Test
    void everySubcommandAnswersHelp() {
        for (String command : List.of("serve", "check", "test", "replay", "explain", "state", "trial", "users", "audit", "rules")) {
            CliRunner.Result r = CliRunner.run(command, "--help");
            assertEquals(0, r.code(), command + ": " + r.err());
            assertTrue(r.out().startsWith("usage: signalman " + command + " "), r.out());
        }
        assertTrue(CliRunner.run("explain", "-h").out().contains("--why-not RULE"));
    }
}
