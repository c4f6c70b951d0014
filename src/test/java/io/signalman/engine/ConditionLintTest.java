package io.signalman.engine;

import static io.signalman.TestBundles.lineOf;
import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Check in an analyst's words: every error of every pack in one pass, rules that can
 * never fire because a rule tried first always matches when they do, and reasons quoting a
 * number the rule no longer tests; a dispatch rule naming an agent nobody has.
 */
class ConditionLintTest {

    @TempDir
    Path tmp;

    private static final String ROUTING = "broker/routing.drl";
    private static final String REVIEW = "fsm/review-flow.drl";
    private static final String TRADE_RULE = "rule \"trade messages go to VP Trading\"";

    @Test
    void everyErrorOfEveryPackIsReportedInOnePassWithBothRulesOfAShadow() throws Exception {
        // Given a bundle with a rule below the trade prefix that only takes some trades, a guard below
        // a looser guard, and a field typo in another pack
        Path rules = copyOfRules(tmp);
        edit(rules.resolve(ROUTING), TRADE_RULE, rule("trade executions go to the desk", 650,
                "Message( subtype == \"trade.executed\" )") + TRADE_RULE);
        edit(rules.resolve(REVIEW), "rule \"a review below the quality bar goes back for revision\"", """
                rule "an excellent review is done"
                    @reason("quality of 0.9 or more")
                    agenda-group "transition" activation-group "transition" salience 180
                when
                    Instance( machine == "review-flow", state == "running" )
                    Action( name == "review", number("quality") >= 0.9 )
                then
                    decide.to("done");
                end

                rule "a review below the quality bar goes back for revision\"""");
        edit(rules.resolve("dispatch/dispatch.drl"), "Inbound( channel == \"telegram\", chat == \"group:-100123\" )",
                "Inbound( chanel == \"telegram\", chat == \"group:-100123\" )");

        // When the bundle is compiled
        BundleException e = assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules)));

        // Then each problem is at its own rule's line, naming the rule that shadows it
        String desk = one(e, ROUTING, lineOf(rules.resolve(ROUTING), "rule \"trade executions go to the desk\""));
        assertTrue(desk.contains("can never fire") && desk.contains("\"trade messages go to VP Trading\" (broker/routing.drl:"),
                desk);
        String guard = one(e, REVIEW, lineOf(rules.resolve(REVIEW), "rule \"an excellent review is done\""));
        assertTrue(guard.contains("\"a review of good quality is done\""), guard);
        String typo = one(e, "dispatch/dispatch.drl", lineOf(rules.resolve("dispatch/dispatch.drl"), "Inbound( chanel =="));
        assertTrue(typo.contains("did you mean \"channel\"?"), typo);
    }

    @Test
    void aTieWithAnEarlierRuleThatAlwaysMatchesSaysTheTieIsWhy() throws Exception {
        // Given a rule after the trade rule, at the same salience, taking only some trades
        Path rules = copyOfRules(tmp);
        edit(rules.resolve(ROUTING), "rule \"InDecision Engine signals go to every trading agent\"",
                rule("trade executions tie with trades", 700, "Message( subtype == \"trade.executed\" )")
                        + "rule \"InDecision Engine signals go to every trading agent\"");

        BundleException e = assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules)));

        String tie = one(e, ROUTING, lineOf(rules.resolve(ROUTING), "rule \"trade executions tie with trades\""));
        assertTrue(tie.contains("can never win: it ties with \"trade messages go to VP Trading\"") && tie.contains("salience 700"),
                tie);
    }

    @Test
    void aStaleReasonAndAnAgentNobodyHasAreWarningsAtTheirLines() throws Exception {
        // Given the quality guard now tests 0.8 while its reason still says 0.7, and a dispatch rule
        // sending to an agent agents.json does not list
        Path rules = copyOfRules(tmp);
        edit(rules.resolve(REVIEW), "number(\"quality\") >= 0.7", "number(\"quality\") >= 0.8");
        edit(rules.resolve("dispatch/dispatch.drl"), "decide.agent(\"release\");", "decide.agent(\"relase\");");

        // When the bundle is compiled, it loads, with two warnings
        RuleBundle b = Packs.compiler().compile(BundleFiles.read(rules));

        BundleError reason = only(b.warnings(), REVIEW);
        assertEquals(lineOf(rules.resolve(REVIEW), "rule \"a review of good quality is done\""), reason.line());
        assertTrue(reason.message().contains("quotes 0.7, but the rule tests 0.8"), reason::toString);
        BundleError agent = only(b.warnings(), "dispatch/dispatch.drl");
        assertEquals(lineOf(rules.resolve("dispatch/dispatch.drl"), "decide.agent(\"relase\")"), agent.line());
        assertTrue(agent.message().contains("did you mean \"release\"?") && agent.message().contains("support"), agent::toString);
    }

    private static String rule(String name, int salience, String when) {
        return "rule \"" + name + "\"\n    @reason(\"testing\")\n    agenda-group \"route\" activation-group \"route\" salience "
                + salience + "\nwhen\n    " + when + "\nthen\n    decide.primary(\"vp-trading\");\nend\n\n";
    }

    private static String one(BundleException e, String file, int line) {
        List<BundleError> at = e.errors().stream().filter(x -> x.file().equals(file) && x.line() == line).toList();
        assertEquals(1, at.size(), () -> "expected one error at " + file + ":" + line + ", got " + e.errors());
        return at.get(0).message();
    }

    private static BundleError only(List<BundleError> warnings, String file) {
        List<BundleError> in = warnings.stream().filter(w -> w.file().equals(file)).toList();
        assertEquals(1, in.size(), warnings::toString);
        return in.get(0);
    }

}
