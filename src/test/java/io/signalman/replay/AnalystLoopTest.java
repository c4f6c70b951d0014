package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import io.signalman.engine.RuleBundle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The analysts' loop needs no Java. On a copy of a bundle and its history: an intended
 * change, recorded with {@code signalman replay --accept}, passes every check {@code make test}
 * runs on the live bundle ({@link BundleChecks}); a new rule with a scenario beside it, and no Java,
 * is covered.
 */
class AnalystLoopTest {

    @TempDir
    Path tmp;

    /** The issue's own example: {@code sed -i 's/"vp-trading"/"cfo"/' rules/broker/routing.drl}. */
    @ParameterizedTest(name = "on a copy of the {0} bundle")
    @ValueSource(strings = {"live", "seed"})
    void tradesGoingToTheCfoInsteadOfVpTradingPassEveryCheckOnceAccepted(String which) throws Exception {
        // Given a copy of the bundle and its history
        boolean live = which.equals("live");
        Path rules = TestBundles.copyOfRules(live ? TestBundles.LIVE_RULES : TestBundles.RULES, tmp);
        Path fixtures = tmp.resolve("replay-fixtures");
        TestBundles.copyTree(live ? TestBundles.LIVE_FIXTURES : TestBundles.FIXTURES, fixtures);
        // (the live rules are the analysts': on them the change may already be made, or be moot,
        // so only the seed copy must show it)
        Path drl = rules.resolve("broker/routing.drl");
        Files.writeString(drl, Files.readString(drl).replace("\"vp-trading\"", "\"cfo\""));

        // When the change is replayed, then accepted with the replay command
        RuleBundle changed = TestBundles.compile(rules);
        ReplayReport before = new Replayer(changed, null, null).replay(Archive.read(List.of(fixtures)));
        CliRunner.Result accept = CliRunner.run("replay", "--rules", rules.toString(), "--accept", fixtures.toString());

        // Then replay had shown the change, accepting it succeeded, and every check passes on the copy
        if (!live) {
            assertEquals(30, before.counts().changed(), before::toText);
            assertTrue(before.toText().contains("primary_recipients: [\"vp-trading\"] -> [\"cfo\"]"), before::toText);
        }
        assertEquals(0, accept.code(), accept.out() + accept.err());
        BundleChecks checks = BundleChecks.run(changed, fixtures);
        assertTrue(checks.historyPasses(), () -> checks.why(rules));
        assertEquals(java.util.Map.of(), checks.uncovered(), () -> checks.why(rules));
        if (!live) {
            // The shipped scenarios state nothing this change contradicts. (On the live rules an
            // analyst's scenario may rightly pin where trades go: that is a scenario saying otherwise.)
            assertTrue(checks.passed(), () -> checks.why(rules));
        }
    }

    @Test
    void aNewRuleWithAScenarioAndNoJavaIsCovered() throws Exception {
        // Given a copy of the seed bundle and history (the live rules may hold anything), with a new
        // rule the history never reaches
        Path rules = TestBundles.copyOfRules(TestBundles.RULES, tmp);
        Path fixtures = tmp.resolve("replay-fixtures");
        TestBundles.copyTree(TestBundles.FIXTURES, fixtures);
        String rule = "new.budget messages go to the CFO";
        Files.writeString(rules.resolve("broker/routing.drl"), """

                rule "new.budget messages go to the CFO"
                    @reason("a new budget is the CFO's to approve")
                    agenda-group "route" activation-group "route" salience 955
                when
                    Message( subtype == "new.budget" )
                then
                    decide.primary("cfo");
                end
                """, StandardOpenOption.APPEND);

        // When the analyst adds a scenario beside it
        Files.writeString(rules.resolve("broker/scenarios/new-budget.yaml"), """
                - name: a new budget from foresight goes to the CFO
                  input:
                    envelope: {from_agent: foresight, priority: normal}
                    type: event
                    subtype: new.budget
                  expect:
                    primary_recipients: [cfo]
                    rule: new.budget messages go to the CFO
                """);

        // Then the history alone leaves the rule unexercised, and every check passes: the history is
        // unchanged, the scenario passes, the rule is covered
        BundleChecks with = BundleChecks.run(rules, fixtures);
        assertTrue(with.history().neverFired().getOrDefault("broker", List.of()).contains(rule), with.history()::toText);
        assertTrue(with.passed(), () -> with.why(rules));
        assertTrue(with.scenarios().exercised().get("broker").contains(rule));
    }
}
