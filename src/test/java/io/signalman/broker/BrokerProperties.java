package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.Decision;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import io.signalman.replay.Archive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The broker's invariants as properties, over generated messages and over every
 * recorded decision of the golden history; and the rules against the seed's hand-written router.
 */
class BrokerProperties {

    private static final RuleBundle BUNDLE = TestBundles.shipped();
    private static final ReferenceRouter SEED = new ReferenceRouter(BUNDLE.requirePack("broker").reference().as(OrgChart.class));

    private static final List<String> KNOWN_SENDERS = List.of("knox", "openclaw", "cfo", "foresight", "sports-agent",
            "indecision-engine", "sentinel", "memory-service", "content-writer", "tool-smith", "watchdog", "data-engineer",
            "vp-trading", "risk-monitor");

    /** Senders whose card lists no authority (or who have no card): every subtype is theirs to send. */
    private static final List<String> UNRESTRICTED_SENDERS = List.of("knox", "openclaw", "vp-trading", "data-engineer",
            "mission-control", "advisory-system", "stranger", "new-bot");

    /**
     * Every subtype a shipped rule tests, and the edges of its test (a bare prefix, a suffix alone,
     * a near miss). Drawn often, so that a wrong order between two rules that both match one of
     * them (a salience swap of the offline and service rules) is found on every run, not by chance.
     */
    static final List<String> RULE_SUBTYPES = List.of("trade.executed", "trade.completed", "trade.entry", "trade.report",
            "trade.", "trades.x", "signal.published", "signal.stale", "service.offline", "service.online", "service.",
            "service.offline.report", "content.published", "content.draft", "content.", "memory.committed", "memory.pruned",
            "memory.committed.x", "pnl.report", "sla.report", ".report", "report", "tool.installed", "tool.report", "tool.",
            "tools.x", "misc.hello", "");

    @Provide
    Arbitrary<BrokerMessage> messages() {
        // indecision-engine is the one sender with a rule of its own: drawn often, with its subtype.
        Arbitrary<String> senders = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(KNOWN_SENDERS)),
                Tuple.of(2, Arbitraries.just("indecision-engine")),
                Tuple.of(2, Arbitraries.strings().withCharRange('a', 'z').withChars('-').ofMinLength(1).ofMaxLength(12)));
        Arbitrary<String> priorities = Arbitraries.of("low", "normal", "high", "critical");
        Arbitrary<String> types = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.just("event")),
                Tuple.of(3, Arbitraries.just("escalation")),
                Tuple.of(1, Arbitraries.of("command", "status", "Escalation")),
                Tuple.of(1, Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8)));
        Arbitrary<String> namespaces = Arbitraries.of("trade.", "service.", "content.", "tool.", "memory.", "signal.", "pnl.",
                "sla.", "misc.", "", "trading.", "tools");
        Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of("executed", "completed", "published", "committed",
                "offline", "report", "entry", "installed"), Arbitraries.strings().withCharRange('a', 'z').withChars('.').ofMaxLength(10));
        Arbitrary<String> composed = Combinators.combine(namespaces, names, Arbitraries.of("", "", ".report"))
                .as((ns, name, suffix) -> ns + name + suffix);
        Arbitrary<String> subtypes = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(RULE_SUBTYPES)),
                Tuple.of(3, composed),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(12)));
        Arbitrary<BrokerMessage> anything = Combinators.combine(senders, priorities, types, subtypes).as(BrokerProperties::message);
        // Most known senders may send only a few subtypes, so the authority rule would take most
        // draws: these senders' cards allow everything (or they have none), so the rule written for
        // the subtype, and the order between it and its neighbours, is what decides.
        Arbitrary<BrokerMessage> ruleShaped = Combinators.combine(Arbitraries.of(UNRESTRICTED_SENDERS),
                Arbitraries.of("low", "normal", "normal", "high", "critical"), Arbitraries.of("event", "event", "escalation"),
                Arbitraries.of(RULE_SUBTYPES)).as(BrokerProperties::message);
        Arbitrary<BrokerMessage> engineSignals = Combinators.combine(priorities, types,
                Arbitraries.of("signal.published", "signal.published", "signal.stale"))
                .as((priority, type, subtype) -> message("indecision-engine", priority, type, subtype));
        return Arbitraries.frequencyOf(Tuple.of(5, anything), Tuple.of(4, ruleShaped), Tuple.of(1, engineSignals));
    }

    private static BrokerMessage message(String from, String priority, String type, String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null);
    }

    @Provide
    Arbitrary<DecisionRecord> recordedDecisions() {
        try {
            // The main history only: the registry-without-traders folder replays with other reference data.
            Archive archive = Archive.read(List.of(TestBundles.BROKER_HISTORY));
            return Arbitraries.of(archive.files().get(0).entries().stream().map(Archive.Entry::record).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Property(tries = 1000)
    void everyInvariantHoldsForAnyMessage(@ForAll("messages") BrokerMessage m) {
        assertInvariants(m);
    }

    @Property(tries = 400)
    void everyInvariantHoldsForEveryRecordedMessage(@ForAll("recordedDecisions") DecisionRecord rec) throws Exception {
        assertInvariants(Packs.BROKER.parseInput(rec.input()));
    }

    @Property(tries = 1000)
    void theRulesDecideExactlyAsTheSeedsHandWrittenRouter(@ForAll("messages") BrokerMessage m) {
        assertEquals(SEED.route(m), decide(m).outcome(), () -> "for " + m);
    }

    /**
     * One message per pair of rules whose order matters (both match it; the higher must win), each
     * against the seed's router: these find a salience swap on every run, whatever the generator draws.
     */
    @Example
    void theRulesDecideAsTheSeedWhereTwoRulesMatchTheSameMessage() {
        String[][] cases = {
            {"sentinel", "normal", "event", "service.offline"},          // offline before service.*
            {"watchdog", "high", "event", "service.offline"},
            {"nats-bridge", "normal", "event", "service.online"},
            {"foresight", "critical", "escalation", "trade.halted"},      // critical before escalation
            {"tool-smith", "critical", "event", "trade.failed"},          // critical before authority
            {"tool-smith", "normal", "event", "trade.executed"},          // authority before trade.*
            {"tool-smith", "normal", "escalation", "trade.executed"},     // an escalation skips the authority check
            {"foresight", "normal", "escalation", "trade.halted"},        // escalation before trade.*
            {"sports-agent", "normal", "event", "trade.report"},          // trade.* before *.report
            {"indecision-engine", "normal", "event", "signal.published"}, // the engine's signal before everything else
            {"indecision-engine", "normal", "escalation", "signal.published"},
            {"indecision-engine", "normal", "event", "signal.stale"},
            {"memory-service", "normal", "event", "memory.committed"},    // memory before everything else
            {"content-writer", "low", "event", "memory.committed"},       // authority before memory
            {"data-engineer", "normal", "event", "tool.report"},          // *.report before tool.*
            {"stranger", "normal", "event", "pnl.report"},
            {"stranger", "low", "event", "misc.hello"},                   // only the catch-all
            {"openclaw", "normal", "status", ""},
        };
        for (String[] c : cases) {
            BrokerMessage m = new BrokerMessage(null, new BrokerMessage.Envelope(c[0], c[1]), c[2], c[3], null);
            assertEquals(SEED.route(m), decide(m).outcome(), () -> "for " + m);
        }
    }

    /**
     * The generator reaches every deciding rule the shipped org chart lets fire, each in at least
     * one draw in a hundred: a property over it tests the order of every pair, not a lucky few.
     * Drawn from a fixed seed, so this is the same 2,000 messages on every run.
     */
    @Example
    void theGeneratorReachesEveryDecidingRuleOften() {
        var generator = messages().generator(1000);
        java.util.Random random = new java.util.Random(18);
        java.util.Map<String, Integer> decided = new java.util.HashMap<>();
        int draws = 2000;
        for (int i = 0; i < draws; i++) {
            decided.merge(decide(generator.next(random).value()).decidedBy().name(), 1, Integer::sum);
        }
        for (var rule : BUNDLE.requirePack("broker").rules()) {
            if (rule.decides() && !rule.name().contains("when the registry has none")) {
                assertTrue(decided.getOrDefault(rule.name(), 0) >= draws / 100, () -> rule.name() + " decided " + decided);
            }
        }
    }

    @Property(tries = 1000)
    void exactlyOneDecidingRuleFiresForAnyMessage(@ForAll("messages") BrokerMessage m) {
        Decision<RouteDecision> d = decide(m);
        assertEquals(1, d.evaluation().fired().stream().filter(r -> r.decides()).count(), () -> "fired " + d.evaluation().fired());
        assertTrue(d.decidedBy() != null);
    }

    @Property(tries = 300)
    void explainingNeverChangesTheDecision(@ForAll("messages") BrokerMessage m) {
        Decision<RouteDecision> plain = decide(m);
        Decision<RouteDecision> explained = Packs.BROKER.decide(BUNDLE, m, true);
        assertEquals(plain.outcome(), explained.outcome());
        assertEquals(plain.evaluation().fired(), explained.evaluation().fired());
    }

    private static Decision<RouteDecision> decide(BrokerMessage m) {
        return Packs.BROKER.decide(BUNDLE, m, false);
    }

    private static void assertInvariants(BrokerMessage m) {
        Decision<RouteDecision> d = decide(m);
        for (Invariant<BrokerMessage, RouteDecision> inv : BrokerInvariants.ALL) {
            Optional<String> violation = inv.check(m, d, BrokerProperties::decide);
            assertTrue(violation.isEmpty(), () -> inv.name() + ": " + violation.get() + " for " + m);
        }
    }
}
