package io.signalman.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading {@code rules/<pack>/scenarios/*.yaml}: what an analyst writes, and every mistake at its line. */
class ScenarioFilesTest {

    private static List<Scenario> parse(String yaml, List<BundleError> errors) {
        return ScenarioFiles.parse("broker/scenarios/s.yaml", "broker", yaml.getBytes(StandardCharsets.UTF_8), errors);
    }

    @Test
    void aScenarioHasANameAnInputAStateAndTheExpectedFieldsAtItsLine() {
        List<BundleError> errors = new ArrayList<>();
        List<Scenario> read = parse("""
                # comments are welcome
                - name: a trade goes to VP Trading
                  input:
                    envelope: {from_agent: foresight, priority: normal}
                    type: event
                    subtype: trade.executed
                  expect:
                    primary_recipients: [vp-trading]
                    rule: trade messages go to VP Trading

                - name: an idle review starts
                  input: {id: r1, action: start}
                  state_before: {type: fsm, machine: review-flow, current_state: idle}
                  expect: {to: running}
                """, errors);

        assertEquals(List.of(), errors);
        assertEquals(2, read.size());
        Scenario first = read.get(0);
        assertEquals("a trade goes to VP Trading", first.name());
        assertEquals("broker", first.pack());
        assertEquals(2, first.line());
        assertEquals("trade.executed", first.input().path("subtype").asText());
        assertEquals("vp-trading", first.expect().path("primary_recipients").get(0).asText());
        assertEquals(null, first.stateBefore());
        assertEquals(11, read.get(1).line());
        assertEquals("idle", read.get(1).stateBefore().path("current_state").asText());
    }

    @Test
    void everyMistakeInAFileIsReportedAtItsLineInOnePass() {
        List<BundleError> errors = new ArrayList<>();
        List<Scenario> read = parse("""
                - name: a typo in a key
                  input: {type: event}
                  expcet: {rule: x}
                - input: {type: event}
                  expect: {rule: x}
                - name: nothing expected
                  input: {type: event}
                  expect: {}
                """, errors);

        assertEquals(List.of(), read);
        assertTrue(errors.stream().anyMatch(e -> e.line() == 1 && e.message().contains("unknown key \"expcet\"")
                && e.message().contains("[name, input, state_before, expect]")), errors::toString);
        assertTrue(errors.stream().anyMatch(e -> e.line() == 4 && e.message().contains("needs a name")), errors::toString);
        assertTrue(errors.stream().anyMatch(e -> e.line() == 6 && e.message().contains("needs an expect")), errors::toString);
    }

    @Test
    void yamlThatDoesNotParseIsReportedAtItsLine() {
        List<BundleError> errors = new ArrayList<>();
        parse("""
                - name: fine
                  input: {type: event}
                  expect: {rule: x
                - name: never reached
                """, errors);

        assertEquals(1, errors.size(), errors::toString);
        assertTrue(errors.get(0).message().startsWith("not valid YAML"), errors::toString);
        assertTrue(errors.get(0).line() >= 3, errors::toString);
    }

    @Test
    void aFileThatIsNotAListSaysHowAScenarioStarts() {
        List<BundleError> errors = new ArrayList<>();
        parse("name: one scenario\ninput: {}\n", errors);
        assertTrue(errors.get(0).message().contains("- name:"), errors::toString);
    }

    @Test
    void twoScenariosOfOnePackWithOneNameAreRefusedNamingTheFirst(@TempDir Path dir) throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        String one = "- name: same\n  input: {type: event}\n  expect: {rule: x}\n";
        Files.writeString(rules.resolve("broker/scenarios/a.yaml"), one);
        Files.writeString(rules.resolve("broker/scenarios/b.yaml"), one);
        Files.writeString(rules.resolve("broker/scenarios/notes.txt"), "scratch");

        ScenarioFiles.Suite suite = ScenarioFiles.read(rules);

        assertTrue(suite.errors().stream().anyMatch(e -> e.file().equals("broker/scenarios/b.yaml")
                && e.message().contains("broker/scenarios/a.yaml:1")), suite.errors()::toString);
        assertTrue(suite.errors().stream().anyMatch(e -> e.file().equals("broker/scenarios/notes.txt")
                && e.message().contains(".yaml")), suite.errors()::toString);
    }

    @Test
    void scenariosArePartOfTheBundlesRevisionButNotOfItsRulesOrReferenceData(@TempDir Path dir) throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        String before = BundleFiles.read(rules).revision();
        // A scenario file in the handoff pack, whose reference data is every .json of the pack.
        Files.writeString(rules.resolve("handoff/scenarios/extra.yaml"),
                "- name: x\n  input: {agent: teacher, response: hi}\n  expect: {rule: null}\n");

        BundleFiles files = BundleFiles.read(rules);
        RuleBundle bundle = Packs.compiler().compile(files);

        assertNotEquals(before, files.revision());
        assertEquals(TestBundles.shipped().packs().get("handoff").rules().size(), bundle.packs().get("handoff").rules().size());
        assertTrue(BundleFiles.isScenario("handoff/scenarios/extra.yaml"));
        assertTrue(!BundleFiles.isScenario("handoff/exam.json") && !BundleFiles.isScenario("scenarios/x.yaml"));
    }
}
