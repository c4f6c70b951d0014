package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** agents.json, config.json and the pack's lint, each error at its file and line. */
class DispatchReferenceTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ---- agents.json: the default agent ---------------------------------------------------------

    @Test
    void theAgentMarkedDefaultIsTheDefault() throws Exception {
        AgentRoster r = AgentRoster.read("a.json", bytes("{\"agents\": [{\"id\": \"a\"}, {\"id\": \"B\", \"default\": true}]}"));
        assertEquals("b", r.defaultAgent());
    }

    @Test
    void withoutADefaultTheFirstListedIsTheDefault() throws Exception {
        assertEquals("a", AgentRoster.read("a.json", bytes("{\"agents\": [{\"id\": \"A\"}, {\"id\": \"b\"}]}")).defaultAgent());
    }

    @Test
    void withoutAgentsTheDefaultIsMainAndEveryRuleAgentIsTakenAsNamed() {
        assertEquals("main", AgentRoster.EMPTY.defaultAgent());
        assertEquals("anyone", AgentRoster.EMPTY.resolve(" Anyone "));
    }

    @Test
    void anUnknownOrBlankAgentFallsBackToTheDefault() throws Exception {
        AgentRoster r = AgentRoster.read("a.json", bytes("{\"agents\": [{\"id\": \"a\"}, {\"id\": \"b\", \"default\": true}]}"));
        assertEquals("b", r.resolve("ghost"));
        assertEquals("b", r.resolve(" "));
        assertEquals("a", r.resolve(" A "));
    }

    @Test
    void twoDefaultsOrTwoIdsThatNormalizeAlikeAreErrorsAtTheirLines() {
        BundleException e = assertThrows(BundleException.class, () -> AgentRoster.read("dispatch/agents.json", bytes(
                "{\"agents\": [\n {\"id\": \"a\", \"default\": true},\n {\"id\": \"A \"},\n {\"id\": \"c\", \"default\": true}\n]}")));
        assertEquals(List.of(3, 4), e.errors().stream().map(BundleError::line).toList(), e.errors().toString());
    }

    @Test
    void anUnknownAgentFieldIsAnErrorAtItsLine() {
        BundleException e = assertThrows(BundleException.class, () -> AgentRoster.read("dispatch/agents.json",
                bytes("{\"agents\": [\n {\"id\": \"a\",\n  \"modle\": \"x\"}\n]}")));
        assertEquals(3, e.errors().get(0).line());
        assertTrue(e.errors().get(0).message().contains("modle"));
    }

    // ---- config.json ----------------------------------------------------------------------------

    @Test
    void theThresholdDefaultsToPointThirtyFiveAndDimensionsAreFiltered() throws Exception {
        DispatchConfig c = DispatchConfig.read("c.json", bytes(
                "{\"session\": {\"dimensions\": [\"Chat\", \"peer\", \"chat\"]}, \"routing\": {\"light_model\": \"l\", \"heavy_model\": \"h\"}}"));
        assertEquals(0.35, c.threshold());
        assertEquals(List.of("chat"), c.dimensions());
        assertTrue(c.routingEnabled());
    }

    @Test
    void anIdLinkedToTwoPeopleIsAnErrorAtItsLine() {
        BundleException e = assertThrows(BundleException.class, () -> DispatchConfig.read("dispatch/config.json", bytes(
                "{\"session\": {\"identity_links\": {\n \"a\": [\"x:1\"],\n \"b\": [\"X:1 \"]\n}},\n"
                        + "\"routing\": {\"light_model\": \"l\", \"heavy_model\": \"h\"}}")));
        assertEquals(3, e.errors().get(0).line(), e.errors().toString());
    }

    @Test
    void aThresholdOutsideZeroToOneIsAnError() {
        BundleException e = assertThrows(BundleException.class, () -> DispatchConfig.read("dispatch/config.json", bytes(
                "{\"routing\": {\"light_model\": \"l\", \"heavy_model\": \"h\",\n \"threshold\": 0}}")));
        assertEquals(2, e.errors().get(0).line());
    }

    @Test
    void aWrongTypeInTheConfigIsAnErrorAtItsLine() {
        BundleException e = assertThrows(BundleException.class, () -> DispatchConfig.read("dispatch/config.json", bytes(
                "{\"routing\": {\n \"enabled\": \"yes please\"}}")));
        assertEquals(2, e.errors().get(0).line());
    }

    // ---- lint: the whole bundle, as make check sees it ------------------------------------------

    private static List<BundleError> compileErrors(Path dir, String from, String to) throws Exception {
        Path rules = TestBundles.copyOfRules(dir);
        TestBundles.edit(rules.resolve("dispatch/dispatch.drl"), from, to);
        BundleException e = assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules)));
        return e.errors();
    }

    @Test
    void anUnconstrainedDispatchRuleIsAnErrorAtItsLine(@TempDir Path dir) throws Exception {
        List<BundleError> errors = compileErrors(dir, "Inbound( channel == \"whatsapp\", account == \"billing\" )", "Inbound( )");
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("dispatch/dispatch.drl", errors.get(0).file());
        assertEquals(lineOf("rule \"the billing account goes to the billing helper\""), errors.get(0).line());
        assertTrue(errors.get(0).message().contains("has no condition"), errors.get(0).message());
    }

    @Test
    void aSelectorLiteralThatCanNeverMatchTheViewIsAnError(@TempDir Path dir) throws Exception {
        List<BundleError> errors = compileErrors(dir, "chat == \"group:-100123\"", "chat == \"Group:-100123\"");
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).message().contains("write \"group:-100123\""), errors.get(0).message());
    }

    @Test
    void twoRulesWithOneShortNameAreAnError(@TempDir Path dir) throws Exception {
        List<BundleError> errors = compileErrors(dir, "@name(\"slack-mentions\")", "@name(\"support-group\")");
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).message().contains("support-group"));
    }

    private static int lineOf(String text) throws Exception {
        List<String> lines = Files.readAllLines(TestBundles.RULES.resolve("dispatch/dispatch.drl"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(text)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line " + text);
    }
}
