package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The seed's examples (seed 003, {@link SeedExamples}), decided in process by the shipped rules. */
class BrokerPackTest {

    private final RuleBundle bundle = TestBundles.shipped();

    static BrokerMessage msg(String from, String priority, String type, String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null);
    }

    private Decision<RouteDecision> decide(BrokerMessage m) {
        return Packs.BROKER.decide(bundle, m, false);
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.signalman.broker.SeedExamples#ALL")
    void everySeedExampleIsDecidedWhollyAsTheSeedSays(SeedExamples.Example c) {
        Decision<RouteDecision> d = decide(c.message());
        assertEquals(c.decision(), d.outcome());
        assertEquals(c.rule(), d.decidedBy().name());
    }

    @Test
    void anEscalationIsDecidedForTheReasonItsRuleGives() {
        Decision<RouteDecision> d = decide(msg("foresight", "normal", "escalation", "trade.halted"));
        assertEquals("escalations go to the sender's manager", d.decidedBy().name());
        assertEquals("type is escalation: the sender's manager in the org chart handles it", d.decidedBy().reason());
    }

    @Test
    void rulesFiredNameTheDecidingRuleAndTheFanOutRulesInFiringOrder() {
        Decision<RouteDecision> d = decide(msg("foresight", "normal", "event", "trade.executed"));
        assertEquals(List.of("trade messages go to VP Trading", "executed and completed trades are kept in memory"),
                d.evaluation().fired().stream().map(r -> r.name()).toList());
        assertEquals("broker/routing.drl", d.decidedBy().file());
        assertTrue(d.decidedBy().line() > 0);
    }

    @Test
    void explainMarksHigherMatchesAsCancelledAndTheRestAsNotMatched() {
        Decision<RouteDecision> d = Packs.BROKER.decide(bundle, msg("foresight", "critical", "event", "trade.executed"), true);
        List<Evaluation.Considered> explain = d.evaluation().explain();
        assertEquals(bundle.requirePack("broker").rules().size(), explain.size());
        assertEquals(Evaluation.Status.FIRED, status(explain, "critical messages go to openclaw and knox"));
        assertEquals(Evaluation.Status.MATCHED_BUT_CANCELLED, status(explain, "trade messages go to VP Trading"));
        assertEquals(Evaluation.Status.MATCHED_BUT_CANCELLED, status(explain, "everything else goes to the sender's manager"));
        assertEquals(Evaluation.Status.NOT_MATCHED, status(explain, "tool messages go to the Sr. Director of Tooling at low priority"));
        assertNull(Packs.BROKER.decide(bundle, msg("foresight", "critical", "event", "trade.executed"), false).evaluation().explain());
    }

    @Test
    void explainSaysInTheAnalystsWordsWhyTheWinnerWonAndWhyEachRuleAboveItDidNot() {
        Decision<RouteDecision> d = Packs.BROKER.decide(bundle, msg("foresight", "normal", "event", "pnl.report"), true);
        var explain = d.toJson(Packs.BROKER.outcomeJson(d.outcome())).get("explain");
        java.util.Map<String, String> why = new java.util.HashMap<>();
        explain.forEach(e -> why.put(e.get("rule").asText(), e.get("why").asText()));
        assertEquals("decided: subtype ends with .report", why.get("reports go to the sender's manager and the advisory system"));
        assertEquals("did not match: subtype str[startsWith] \"trade.\" was false: subtype is \"pnl.report\""
                + " (it applies when subtype starts with trade.)", why.get("trade messages go to VP Trading"));
        assertEquals("matched (no other rule matched: the sender's manager receives it, so no message is ever dropped), "
                + "but \"reports go to the sender's manager and the advisory system\" was tried first",
                why.get("everything else goes to the sender's manager"));
    }

    private static Evaluation.Status status(List<Evaluation.Considered> explain, String rule) {
        return explain.stream().filter(c -> c.rule().name().equals(rule)).findFirst().orElseThrow().status();
    }
}
