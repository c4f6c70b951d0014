package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import io.signalman.engine.BundleError;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate's refusals lead with the real reason: invariant violations first, {@code --accept}
 * suggested only where accepting would pass, paths as the user types them.
 */
class ReplayGateTest {

    private static final Path BROKER = Path.of("broker", "routing.drl");

    @TempDir
    Path tmp;

    @Test
    void anIntendedChangeSuggestsAcceptWithTheFixturesPathAsTyped() {
        // Given trades now go to the CFO (an intended change that breaks no invariant)
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve(BROKER), "decide.primary(\"vp-trading\")", "decide.primary(\"cfo\")");

        // When the gate replays the golden history
        List<BundleError> errors = new ReplayGate(TestBundles.FIXTURES).check(TestBundles.compile(rules));

        // Then each changed record suggests recording it with --accept on the fixtures folder
        assertFalse(errors.isEmpty());
        BundleError first = errors.get(0);
        assertTrue(first.message().startsWith("the recorded decision changes: primary_recipients [\"vp-trading\"] -> [\"cfo\"]"),
                first.message());
        assertTrue(first.message().endsWith("record it with signalman replay --accept " + TestBundles.FIXTURES
                + " and review the diff"), first.message());
        assertEquals(TestBundles.FIXTURES.resolve("broker/history.jsonl").toAbsolutePath().toString(), first.file());
    }

    @Test
    void aBrokenInvariantLeadsAndAcceptIsNotSuggested() {
        // Given critical messages no longer reach openclaw and knox
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve(BROKER), "decide.primary(\"openclaw\", \"knox\")", "decide.primary(\"cfo\")");

        // When the gate replays the golden history
        List<BundleError> errors = new ReplayGate(TestBundles.FIXTURES).check(TestBundles.compile(rules));

        // Then the violation comes first, and no change suggests an --accept that would be refused
        assertTrue(errors.get(0).message().startsWith("invariant \"critical messages always reach openclaw and knox\" breaks"),
                errors.get(0).message());
        assertTrue(errors.stream().filter(e -> e.message().startsWith("the recorded decision changes"))
                .allMatch(e -> e.message().contains("refuses while an invariant breaks")), errors.toString());
        assertTrue(errors.stream().noneMatch(e -> e.message().contains("record it with")), errors.toString());
    }

    @Test
    void startUpSaysTheGateRefusedAndPrintsTheHistoryWhereItIs() {
        // Given rules that compile but change the golden history
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve(BROKER), "decide.primary(\"vp-trading\")", "decide.primary(\"cfo\")");

        // When serve starts on them
        CliRunner.Result r = CliRunner.run("serve", "--port", "0", "--rules", rules.toString(), "--fixtures", TestBundles.FIXTURES.toString(),
                "--data", tmp.resolve("data").toString());

        // Then it refuses, saying the gate did, with the history's path as the user would type it
        assertEquals(1, r.code());
        assertTrue(r.err().contains("signalman: the rules compile, but the gate refused them"), r.err());
        assertFalse(r.err().contains("do not compile"), r.err());
        assertTrue(r.err().startsWith(TestBundles.FIXTURES.resolve("broker/history.jsonl") + ":"), r.err());
        assertFalse(r.err().contains("rules/" + TestBundles.FIXTURES), r.err());
    }
}
