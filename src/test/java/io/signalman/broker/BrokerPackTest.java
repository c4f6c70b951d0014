package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seed's examples (seed 003), decided in process by the shipped rules. */
class BrokerPackTest {

    private final RuleBundle bundle = TestBundles.shipped();

    static BrokerMessage msg(String from, String priority, String type, String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null);
    }

    private Decision<RouteDecision> decide(BrokerMessage m) {
        return Packs.BROKER.decide(bundle, m, false);
    }

    @Test
    void criticalMessagesGoToOpenclawAndKnoxWithFanOutAndStore() {
        Decision<RouteDecision> d = decide(msg("foresight", "critical", "event", "trade.failed"));
        assertEquals(List.of("openclaw", "knox"), d.outcome().primaryRecipients());
        assertEquals(List.of("mission-control", "sentinel"), d.outcome().fanOut());
        assertTrue(d.outcome().storeInMemory());
        assertEquals("critical messages go to openclaw and knox", d.decidedBy().name());
    }

    @Test
    void criticalOverridesTheAuthorityCheck() {
        Decision<RouteDecision> d = decide(msg("tool-smith", "critical", "event", "trade.executed"));
        assertEquals(List.of("openclaw", "knox"), d.outcome().primaryRecipients());
        assertFalse(d.outcome().convertedToEscalation());
    }

    @Test
    void escalationsGoToTheSendersManagerAtHighPriority() {
        Decision<RouteDecision> d = decide(msg("foresight", "normal", "escalation", "trade.halted"));
        assertEquals(List.of("vp-trading"), d.outcome().primaryRecipients());
        assertEquals(List.of("mission-control"), d.outcome().fanOut());
        assertEquals("high", d.outcome().priorityOverride());
        assertTrue(d.outcome().storeInMemory());
        assertEquals("escalations go to the sender's manager", d.decidedBy().name());
        assertEquals("type is escalation: the sender's manager in the org chart handles it", d.decidedBy().reason());
    }

    @Test
    void indecisionEngineEscalatesToTheSeniorDirectorOfSignals() {
        assertEquals(List.of("sr-director-signals"),
                decide(msg("indecision-engine", "high", "escalation", "signal.stale")).outcome().primaryRecipients());
    }

    @Test
    void messagesOutsideAuthorityAreConvertedToEscalations() {
        Decision<RouteDecision> d = decide(msg("tool-smith", "normal", "event", "trade.executed"));
        assertEquals(List.of("sr-director-tooling"), d.outcome().primaryRecipients());
        assertTrue(d.outcome().convertedToEscalation());
        assertEquals("high", d.outcome().priorityOverride());
    }

    @Test
    void tradeMessagesGoToVpTradingAndOnlyExecutedOrCompletedAreStored() {
        RouteDecision executed = decide(msg("foresight", "normal", "event", "trade.executed")).outcome();
        assertEquals(List.of("vp-trading"), executed.primaryRecipients());
        assertEquals(List.of("cfo", "mission-control"), executed.fanOut());
        assertTrue(executed.storeInMemory());
        assertTrue(decide(msg("foresight", "normal", "event", "trade.completed")).outcome().storeInMemory());
        assertFalse(decide(msg("foresight", "normal", "event", "trade.entry")).outcome().storeInMemory());
    }

    @Test
    void tradeReportIsATradeMessageNotAReport() {
        assertEquals(List.of("vp-trading"), decide(msg("foresight", "normal", "event", "trade.report")).outcome().primaryRecipients());
    }

    @Test
    void indecisionEngineSignalsReachEveryTradingAgentOfTheRegistry() {
        RouteDecision d = decide(msg("indecision-engine", "normal", "event", "signal.published")).outcome();
        assertEquals(List.of("foresight", "sports-agent", "political-agent", "perpetuals-bot"), d.primaryRecipients());
        assertEquals(List.of(), d.fanOut());
        assertFalse(d.storeInMemory());
        assertEquals("high", d.priorityOverride());
    }

    @Test
    void serviceOfflineAlsoFansOutToOpenclaw() {
        RouteDecision offline = decide(msg("sentinel", "normal", "event", "service.offline")).outcome();
        assertEquals(List.of("vp-engineering"), offline.primaryRecipients());
        assertEquals(List.of("sentinel", "mission-control", "openclaw"), offline.fanOut());
        assertEquals(List.of("sentinel", "mission-control"),
                decide(msg("sentinel", "normal", "event", "service.degraded")).outcome().fanOut());
    }

    @Test
    void contentGoesToVpContentAndPublishedContentIsStored() {
        RouteDecision d = decide(msg("content-writer", "normal", "event", "content.published")).outcome();
        assertEquals(List.of("vp-content"), d.primaryRecipients());
        assertEquals(List.of("mission-control"), d.fanOut());
        assertTrue(d.storeInMemory());
        assertFalse(decide(msg("content-writer", "normal", "event", "content.draft")).outcome().storeInMemory());
    }

    @Test
    void memoryCommitsGoToTheMemoryServiceOnly() {
        RouteDecision d = decide(msg("foresight", "normal", "event", "memory.committed")).outcome();
        assertEquals(List.of("memory-service"), d.primaryRecipients());
        assertEquals(List.of(), d.fanOut());
    }

    @Test
    void reportsGoToTheSendersManagerAndTheAdvisorySystem() {
        RouteDecision d = decide(msg("foresight", "normal", "event", "pnl.report")).outcome();
        assertEquals(List.of("vp-trading"), d.primaryRecipients());
        assertEquals(List.of("advisory-system"), d.fanOut());
    }

    @Test
    void toolMessagesGoToTheSeniorDirectorOfToolingAtLowPriority() {
        RouteDecision d = decide(msg("tool-smith", "normal", "event", "tool.installed")).outcome();
        assertEquals(List.of("sr-director-tooling"), d.primaryRecipients());
        assertEquals("low", d.priorityOverride());
    }

    @Test
    void unknownSendersFallBackToOpenclaw() {
        Decision<RouteDecision> d = decide(msg("stranger", "low", "event", "misc.hello"));
        assertEquals(List.of("openclaw"), d.outcome().primaryRecipients());
        assertEquals(List.of("mission-control"), d.outcome().fanOut());
        assertEquals("everything else goes to the sender's manager", d.decidedBy().name());
    }

    @Test
    void theFounderReportsToNoOneSoTheDefaultGoesToOpenclaw() {
        assertEquals(List.of("openclaw"), decide(msg("knox", "normal", "event", "misc.hello")).outcome().primaryRecipients());
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
