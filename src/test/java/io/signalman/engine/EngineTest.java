package io.signalman.engine;

import static io.signalman.TestBundles.copyOfRules;
import static io.signalman.TestBundles.edit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.RouteDecision;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The active bundle is swapped only for a good one; a refused bundle leaves the old one serving. */
class EngineTest {

    private static final String ROUTING = "broker/routing.drl";

    @TempDir
    Path tmp;

    @Test
    void noBundleIsServedBeforeTheFirstLoad() {
        // Given an engine that has not loaded anything
        Engine engine = new Engine(copyOfRules(tmp), Packs.compiler());

        // Then there is no current bundle, and asking for one says so
        assertTrue(engine.current().isEmpty());
        assertThrows(NoBundleException.class, engine::bundle);
        assertTrue(engine.lastRefused().isEmpty());
    }

    @Test
    void aBrokenFirstLoadLeavesNoBundleAndRecordsTheRefusal() throws Exception {
        // Given rules with a syntax error
        Path rules = copyOfRules(tmp);
        edit(rules.resolve(ROUTING), "salience 700\nwhen", "salience 700\nwhn");
        Engine engine = new Engine(rules, Packs.compiler());

        // When they are loaded
        assertThrows(BundleException.class, engine::load);

        // Then nothing serves, and the refusal is kept with its revision
        assertTrue(engine.current().isEmpty());
        Engine.Refusal refusal = engine.lastRefused().orElseThrow();
        assertEquals(BundleFiles.read(rules).revision(), refusal.revision());
        assertFalse(refusal.errors().isEmpty());
    }

    @Test
    void aRefusedReloadKeepsThePreviousBundleServingUntilTheFilesAreFixed() throws Exception {
        // Given an engine serving a good copy of the rules
        Path rules = copyOfRules(tmp);
        Engine engine = new Engine(rules, Packs.compiler());
        RuleBundle good = engine.load();
        assertEquals(good, engine.current().orElseThrow());

        // When the rules break (a syntax error) and are reloaded
        edit(rules.resolve(ROUTING), "salience 700\nwhen", "salience 700\nwhn");
        BundleException refused = assertThrows(BundleException.class, engine::load);

        // Then the previous bundle still serves and still decides
        assertEquals(good.revision(), engine.bundle().revision());
        Decision<RouteDecision> d = Packs.BROKER.decide(engine.bundle(), trade(), false);
        assertEquals(List.of("vp-trading"), d.outcome().primaryRecipients());
        assertEquals(good.revision(), d.revision());
        // And the refusal is reported with file and line
        Engine.Refusal refusal = engine.lastRefused().orElseThrow();
        assertEquals(refused.errors(), refusal.errors());
        assertNotEquals(good.revision(), refusal.revision());
        assertTrue(refusal.errors().stream().anyMatch(e -> e.file().equals(ROUTING) && e.line() > 0),
                () -> refusal.errors().toString());

        // When the files are fixed (with a change of their own) and reloaded
        edit(rules.resolve(ROUTING), "salience 700\nwhn", "salience 700\nwhen");
        edit(rules.resolve(ROUTING), "@reason(\"subtype starts with trade.\")", "@reason(\"subtype starts with trade, then a dot\")");
        RuleBundle fixed = engine.load();

        // Then the new revision serves
        assertNotEquals(good.revision(), fixed.revision());
        assertEquals(fixed.revision(), engine.bundle().revision());
        Decision<RouteDecision> after = Packs.BROKER.decide(engine.bundle(), trade(), false);
        assertEquals(fixed.revision(), after.revision());
        assertEquals("subtype starts with trade, then a dot", after.decidedBy().reason());
    }

    @Test
    void decisionsStayCorrectAndFirstMatchAfterSessionsAreRecycled() {
        // Given one compiled pack and a few messages, several of which match more than one deciding rule
        RuleBundle bundle = TestBundles.shipped();
        List<BrokerMessage> messages = List.of(
                trade(),
                msg("foresight", "critical", "event", "trade.executed"),
                msg("foresight", "normal", "escalation", "trade.halted"),
                msg("tool-smith", "normal", "event", "trade.executed"),
                msg("sentinel", "normal", "event", "service.offline"),
                msg("foresight", "normal", "event", "memory.committed"),
                msg("unknown-agent", "low", "event", "something.else"));
        List<Decision<RouteDecision>> first = messages.stream().map(m -> Packs.BROKER.decide(bundle, m, false)).toList();
        int total = 25_000; // more than SessionPool.MAX_USES, so the single-threaded session is retired twice
        assertTrue(total > 2 * SessionPool.MAX_USES);

        // When the same messages are decided over and over through the same pack
        for (int i = 0; i < total; i++) {
            int k = i % messages.size();
            Decision<RouteDecision> d = Packs.BROKER.decide(bundle, messages.get(k), false);

            // Then every decision equals the first one for that message, and exactly one rule decided it
            int n = i;
            assertEquals(first.get(k).outcome(), d.outcome(), () -> "decision " + n + " of " + messages.get(k));
            assertEquals(first.get(k).decidedBy(), d.decidedBy(), () -> "decision " + n + " of " + messages.get(k));
            assertEquals(1, d.evaluation().fired().stream().filter(RuleInfo::decides).count(),
                    () -> "decision " + n + " fired " + d.evaluation().fired());
        }
        // And the first answers were the right ones
        assertEquals(List.of("vp-trading"), first.get(0).outcome().primaryRecipients());
        assertEquals(List.of("openclaw", "knox"), first.get(1).outcome().primaryRecipients());
        assertEquals(List.of("vp-trading"), first.get(2).outcome().primaryRecipients());
        assertTrue(first.get(3).outcome().convertedToEscalation());
        assertEquals(List.of("vp-engineering"), first.get(4).outcome().primaryRecipients());
        assertEquals(List.of(), first.get(5).outcome().fanOut());
        assertEquals(List.of("openclaw"), first.get(6).outcome().primaryRecipients());
    }

    private static BrokerMessage trade() {
        return msg("foresight", "normal", "event", "trade.entry");
    }

    private static BrokerMessage msg(String from, String priority, String type, String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null);
    }
}
