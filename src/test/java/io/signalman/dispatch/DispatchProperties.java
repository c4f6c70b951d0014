package io.signalman.dispatch;

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
 * The dispatch invariants (SPEC 4.4) as properties, over generated messages and over every
 * recorded decision of the golden history; and the rules against the hand-written seed dispatcher.
 */
class DispatchProperties {

    private static final RuleBundle BUNDLE = TestBundles.shipped();
    private static final SeedDispatcher SEED = SeedDispatcher.of(
            BUNDLE.requirePack("dispatch").reference().as(DispatchReference.class));

    /** Variants of the shipped rules' values with case and Unicode whitespace around them. */
    private static Arbitrary<String> noisy(String... values) {
        return Combinators.combine(Arbitraries.of(values), Arbitraries.of("", " ", "\u00a0", "\u3000", "\t"), Arbitraries.of(true, false))
                .as((v, pad, upper) -> pad + (upper ? v.toUpperCase(java.util.Locale.ROOT) : v) + pad);
    }

    @Provide
    Arbitrary<InboundMessage> messages() {
        Arbitrary<String> channels = noisy("telegram", "slack", "discord", "whatsapp", "email", "line", "");
        Arbitrary<String> accounts = Arbitraries.oneOf(noisy("billing", "default", "Main Bot"), Arbitraries.just(null));
        Arbitrary<InboundMessage.Place> spaces = Arbitraries.oneOf(Arbitraries.just(null), Combinators.combine(
                noisy("workspace", "guild", ""), noisy("T001", "g-community", "x")).as(InboundMessage.Place::new));
        Arbitrary<InboundMessage.Place> chats = Arbitraries.oneOf(Arbitraries.just(null), Combinators.combine(
                noisy("group", "forum", "direct", ""), noisy("-100123", "-100777", "555", "")).as(InboundMessage.Place::new));
        Arbitrary<String> topics = Arbitraries.oneOf(Arbitraries.just(null), noisy("42", "43", ""));
        Arbitrary<String> senders = Arbitraries.oneOf(Arbitraries.just(null), noisy("555", "telegram:555", "slack:u777", "U777",
                "alice@example.com", "vip-alice", "bob#0001", "stranger"));
        Arbitrary<String> texts = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(400),
                Arbitraries.strings().withCharRange('\u4e00', '\u4fff').withChars(' ', 'a').ofMaxLength(260),
                Combinators.combine(Arbitraries.strings().alpha().ofMaxLength(300), Arbitraries.of("", "```", "```x```", " a.png",
                        "data:video/mp4")).as((a, b) -> a + b));
        Arbitrary<List<InboundMessage.Turn>> history = Combinators.combine(Arbitraries.of("user", "assistant", "tool"),
                Arbitraries.integers().between(0, 3)).as(InboundMessage.Turn::new).list().ofMaxSize(14);
        Arbitrary<Boolean> mentioned = Arbitraries.of(true, false).injectNull(0.2);
        return Combinators.combine(channels, accounts, spaces, chats, topics, senders, mentioned, texts)
                .flatAs((c, a, s, ch, t, se, m, tx) -> history.map(h -> new InboundMessage(null, c, a, s, ch, t, se, m, tx, h)));
    }

    @Provide
    Arbitrary<DecisionRecord> recordedDecisions() {
        try {
            Archive archive = Archive.read(List.of(TestBundles.FIXTURES.resolve("dispatch/history.jsonl")));
            return Arbitraries.of(archive.files().get(0).entries().stream().map(Archive.Entry::record).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Property(tries = 500)
    void everyInvariantHoldsForAnyMessage(@ForAll("messages") InboundMessage m) {
        assertInvariants(m);
    }

    @Property(tries = 300)
    void everyInvariantHoldsForEveryRecordedMessage(@ForAll("recordedDecisions") DecisionRecord rec) throws Exception {
        assertInvariants(Packs.DISPATCH.parseInput(rec.input()));
    }

    @Property(tries = 800)
    void theRulesDispatchExactlyAsTheSeedsHandWrittenDispatcher(@ForAll("messages") InboundMessage m) {
        DispatchDecision d = decide(m).outcome();
        SeedDispatcher.Expected want = SEED.dispatch(m);
        assertEquals(want.agent(), d.agentId(), () -> "for " + m);
        assertEquals(want.matchedBy(), d.matchedBy(), () -> "for " + m);
        assertEquals(want.account(), d.accountId());
        assertEquals(want.dimensions(), d.sessionPolicy().dimensions());
        assertEquals(want.sessionKey(), d.sessionKey());
        assertEquals(want.light(), d.model().light(), () -> "score " + d.model().score() + " for " + m);
        assertEquals(want.model(), d.model().name());
        assertEquals(want.score(), d.model().score(), 1e-9);
    }

    @Property(tries = 300)
    void attachmentsAlwaysGetTheHeavyModel(@ForAll("messages") InboundMessage m) {
        InboundMessage withPhoto = new InboundMessage(null, m.channel(), m.account(), m.space(), m.chat(), m.topic(), m.sender(),
                m.mentioned(), m.text() + " photo.jpg", m.history());
        ModelChoice model = decide(withPhoto).outcome().model();
        assertTrue(!model.light() && model.score() == 1.0, () -> "light model for " + withPhoto);
    }

    @Property(tries = 300)
    void explainingNeverChangesTheDecision(@ForAll("messages") InboundMessage m) {
        Decision<DispatchDecision> plain = decide(m);
        Decision<DispatchDecision> explained = Packs.DISPATCH.decide(BUNDLE, m, true);
        assertEquals(plain.outcome(), explained.outcome());
        assertEquals(plain.evaluation().fired(), explained.evaluation().fired());
    }

    private static Decision<DispatchDecision> decide(InboundMessage m) {
        return Packs.DISPATCH.decide(BUNDLE, m, false);
    }

    private static void assertInvariants(InboundMessage m) {
        Decision<DispatchDecision> d = decide(m);
        for (Invariant<InboundMessage, DispatchDecision> inv : DispatchInvariants.ALL) {
            Optional<String> violation = inv.check(m, d, DispatchProperties::decide);
            assertTrue(violation.isEmpty(), () -> inv.name() + ": " + violation.get() + " for " + m);
        }
    }
}
