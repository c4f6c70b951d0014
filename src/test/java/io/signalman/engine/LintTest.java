package io.signalman.engine;

import static io.signalman.TestBundles.compileErrors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.signals.SignalTier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Lint beyond compiling: shadowed rules and unknown recipients, each with a fix. */
class LintTest {

    @TempDir
    Path tmp;

    /**
     * One edit of a seed file that lint refuses with exactly one error, in that file, whose message
     * matches {@code message} (a regular expression found in it): the fix it offers.
     */
    private record Refused(String why, String file, String from, String to, String message) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Refused> REFUSED = List.of(
            new Refused("a rule whose agenda group is not one of its pack's tiers is refused naming them", "signals/plugins.drl",
                    "agenda-group \"plugin\"", "agenda-group \"plugins\"",
                    Pattern.quote("which pack signals never focuses; use agenda-group \"strategy\" or \"agent\" or \"plugin\"")),
            new Refused("a recipient without a card is an error suggesting the nearest agent", "broker/routing.drl",
                    "decide.primary(\"vp-trading\")", "decide.primary(\"vp-tradng\")",
                    Pattern.quote("sends to \"vp-tradng\", which has no card in broker/org-chart.json; did you mean \"vp-trading\"?")
                            + "$"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REFUSED")
    void aMistakeLintFindsIsOneErrorInItsFileWithTheFix(Refused c) throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        TestBundles.edit(rules.resolve(c.file()), c.from(), c.to());

        List<BundleError> errors = compileErrors(rules);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals(c.file(), errors.get(0).file());
        assertTrue(Pattern.compile(c.message()).matcher(errors.get(0).message()).find(), errors.get(0).message());
    }

    @Test
    void theSignalTiersAreNamedInTheirOrderAsTheAgendaGroupsToUse() {
        String tiers = Arrays.stream(SignalTier.values()).map(t -> "\"" + t.agendaGroup() + "\"")
                .collect(Collectors.joining(" or "));

        assertEquals("\"strategy\" or \"agent\" or \"plugin\"", tiers);
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
    void theShippedRulesHaveNoShadowedRuleAndNoUnknownRecipient() throws Exception {
        assertEquals(List.of(), compileErrors(TestBundles.RULES));
    }
}
