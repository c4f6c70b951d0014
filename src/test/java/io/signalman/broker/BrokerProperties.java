package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.Packs;
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
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The broker's invariants (SPEC 4.1) as properties, over generated messages and over every
 * recorded decision of the golden history; and the rules against the seed's hand-written router.
 */
class BrokerProperties {

    private static final RuleBundle BUNDLE = TestBundles.shipped();
    private static final ReferenceRouter SEED = new ReferenceRouter(BUNDLE.requirePack("broker").reference().as(OrgChart.class));

    private static final List<String> KNOWN_SENDERS = List.of("knox", "openclaw", "cfo", "foresight", "sports-agent",
            "indecision-engine", "sentinel", "memory-service", "content-writer", "tool-smith", "watchdog", "data-engineer",
            "vp-trading", "risk-monitor");

    @Provide
    Arbitrary<BrokerMessage> messages() {
        Arbitrary<String> senders = Arbitraries.oneOf(Arbitraries.of(KNOWN_SENDERS),
                Arbitraries.strings().withCharRange('a', 'z').withChars('-').ofMinLength(1).ofMaxLength(12));
        Arbitrary<String> priorities = Arbitraries.of("low", "normal", "high", "critical");
        Arbitrary<String> types = Arbitraries.oneOf(Arbitraries.of("event", "escalation", "command"),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8));
        Arbitrary<String> namespaces = Arbitraries.of("trade.", "service.", "content.", "tool.", "memory.", "signal.", "pnl.",
                "sla.", "misc.", "", "trading.", "tools");
        Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of("executed", "completed", "published", "committed",
                "offline", "report", "entry", "installed"), Arbitraries.strings().withCharRange('a', 'z').withChars('.').ofMaxLength(10));
        Arbitrary<String> subtypes = Combinators.combine(namespaces, names, Arbitraries.of("", "", ".report"))
                .as((ns, name, suffix) -> ns + name + suffix);
        return Combinators.combine(senders, priorities, types, subtypes).as((from, priority, type, subtype) ->
                new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null));
    }

    @Provide
    Arbitrary<DecisionRecord> recordedDecisions() {
        try {
            // The main history only: the registry-without-traders folder replays with other reference data.
            Archive archive = Archive.read(List.of(TestBundles.FIXTURES.resolve("broker/history.jsonl")));
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
