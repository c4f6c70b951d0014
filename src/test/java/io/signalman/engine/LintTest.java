package io.signalman.engine;

import static io.signalman.TestBundles.compileErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lint beyond compiling: shadowed rules and unknown recipients, each with a fix. */
class LintTest {

    @TempDir
    Path tmp;

    @Test
    void aRuleWhoseAgendaGroupIsNotOneOfItsPacksTiersIsRefusedNamingThem() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve("signals/plugins.drl"), "agenda-group \"plugin\"", "agenda-group \"plugins\"");

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("signals/plugins.drl", errors.get(0).file());
        String tiers = java.util.Arrays.stream(io.signalman.signals.SignalTier.values())
                .map(t -> "\"" + t.agendaGroup() + "\"").collect(java.util.stream.Collectors.joining(" or "));
        assertEquals("\"strategy\" or \"agent\" or \"plugin\"", tiers);
        assertTrue(errors.get(0).message().contains("which pack signals never focuses; use agenda-group " + tiers),
                errors.get(0).message());
    }

    @Test
    void aTiersDrlNameIsItsConstantLowerCasedWithDashesAndItsKindIsItsOwn() {
        assertEquals("no-signal", io.signalman.handoff.HandoffTier.NO_SIGNAL.agendaGroup());
        assertEquals(Phase.Kind.ADDITIVE, io.signalman.broker.BrokerTier.FAN_OUT.kind());
        assertEquals(List.of(new Phase("route", Phase.Kind.FIRST_MATCH), new Phase("fan-out", Phase.Kind.ADDITIVE)),
                Packs.BROKER.phases());
    }

    @Test
    void aDecidingRuleBelowOneThatMatchesEverythingIsShadowed() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        Path drl = rules.resolve("broker/routing.drl");
        Files.writeString(drl, Files.readString(drl) + """

                rule "odd messages go to the CFO"
                    @reason("an afterthought")
                    agenda-group "route" activation-group "route" salience -10
                when
                    Message( subtype == "odd.thing" )
                then
                    decide.primary("cfo");
                end
                """);

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).message().contains("can never fire: \"everything else goes to the sender's manager\""));
        assertTrue(errors.get(0).message().contains("give \"odd messages go to the CFO\" a salience above 0"));
        assertEquals(Files.readAllLines(drl).indexOf("rule \"odd messages go to the CFO\"") + 1, errors.get(0).line());
    }

    @Test
    void anUnconditionalStrategyRouteShadowsEveryLowerTier() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        Files.writeString(rules.resolve("signals/catch-all.drl"), """
                package signalman.signals.catchall;
                import io.signalman.signals.Signal;
                global io.signalman.signals.RouteAction decide;

                rule "every signal continues"
                    @reason("too broad")
                    agenda-group "strategy" activation-group "signal-route" salience -1000
                when
                    Signal()
                then
                    decide.action("continue");
                end
                """);

        List<BundleError> errors = compileErrors(rules);

        assertTrue(errors.size() >= 9, errors.toString());
        assertTrue(errors.stream().allMatch(e -> e.message().contains("\"every signal continues\"")));
        assertTrue(errors.stream().anyMatch(e -> e.message().contains("in a tier before \"strategy\"")));
    }

    @Test
    void aRecipientWithoutACardIsAnErrorSuggestingTheNearestAgent() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve("broker/routing.drl"), "decide.primary(\"vp-trading\")", "decide.primary(\"vp-tradng\")");

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).message().endsWith("sends to \"vp-tradng\", which has no card in broker/org-chart.json; "
                + "did you mean \"vp-trading\"?"), errors.get(0).message());
    }

    @Test
    void theShippedRulesHaveNoShadowedRuleAndNoUnknownRecipient() throws Exception {
        assertEquals(List.of(), compileErrors(TestBundles.RULES));
    }
}
