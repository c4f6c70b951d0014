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
 * suggested only where accepting would pass, paths as the user types them. The gate checks
 * determinism on every record, never on the sample a replay checks by default.
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
        assertEquals(TestBundles.BROKER_HISTORY.toAbsolutePath().toString(), first.file());
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
    void theGateChecksDeterminismOnEveryRecordOfTheHistory() throws Exception {
        // Given the seed's golden history, far more records than one sample of 64 would check

        // When the gate replays it over the seed rules
        ReplayReport report = new ReplayGate(TestBundles.FIXTURES).replay(TestBundles.shipped());

        // Then every decided record was decided a second time
        assertTrue(report.decided() > 4 * Determinism.SAMPLE_ONE_IN, report::toText);
        assertEquals(report.decided(), report.counts().determinismChecked(), report::toText);
        assertEquals(Determinism.ALL, report.determinism());
    }

    @Test
    void aRuleThatDecidesARecordTwoWaysIsRefused() {
        // Given a rule that decides the first message of each rule session one way and the next ones another
        Path rules = NondeterministicRules.copy(tmp);

        // When the gate replays the golden history
        List<BundleError> errors = new ReplayGate(TestBundles.FIXTURES).check(TestBundles.compile(rules));

        // Then it is refused, the broken determinism first
        assertFalse(errors.isEmpty());
        assertTrue(errors.get(0).message().startsWith("invariant \"" + NondeterministicRules.INVARIANT + "\" breaks: decided "),
                errors.get(0).message());
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
        assertTrue(r.err().startsWith(TestBundles.BROKER_HISTORY + ":"), r.err());
        assertFalse(r.err().contains("rules/" + TestBundles.FIXTURES), r.err());
    }
}
