package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The shipped dispatch rules decide the seed's examples and tables, in process. */
class DispatchPackTest {

    private static final RuleBundle BUNDLE = TestBundles.shipped();

    static InboundMessage message(String channel, String account, InboundMessage.Place space, InboundMessage.Place chat,
                                  String topic, String sender, Boolean mentioned, String text, List<InboundMessage.Turn> history) {
        return new InboundMessage(null, channel, account, space, chat, topic, sender, mentioned, text, history);
    }

    static InboundMessage.Place place(String type, String id) {
        return new InboundMessage.Place(type, id);
    }

    static Decision<DispatchDecision> decide(InboundMessage m) {
        return Packs.DISPATCH.decide(BUNDLE, m, false);
    }

    static List<InboundMessage.Turn> turns(int n, int toolCallsEach) {
        return Collections.nCopies(n, new InboundMessage.Turn("assistant", toolCallsEach));
    }

    // ---- where a message goes: seed 004's two examples, and more rules ------------------------

    /**
     * A message and where it goes: the agent, what matched ({@code default}: no rule, so
     * {@code rule} is null), and the channel and account as normalized.
     */
    private record Dispatched(String why, InboundMessage message, String agent, String matchedBy, String channel,
                              String account, String rule) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Dispatched> DISPATCHED = List.of(
            // seed 004's examples
            new Dispatched("the telegram support group goes to support", message("Telegram", "", null,
                    place("group", "-100123"), null, "U1", null, "hi", List.of()), "support", "dispatch.rule:support-group",
                    "telegram", "default", "the telegram support group goes to support"),
            new Dispatched("slack mentions in workspace T001 go to support", message("slack", null, place("workspace", "T001"),
                    place("channel", "C9"), null, "U2", true, "help", List.of()), "support", "dispatch.rule:slack-mentions",
                    "slack", "default", "mentions in the slack workspace T001 go to support"),
            new Dispatched("slack messages in workspace T001 without a mention go to the default agent", message("slack", null,
                    place("workspace", "T001"), place("channel", "C9"), null, "U2", false, "chatter", List.of()), "assistant",
                    "default", "slack", "default", null),
            // more dispatch rules
            new Dispatched("the release topic of the forum goes to the release manager", message("telegram", null, null,
                    place("forum", "-100777"), " 42 ", "U5", null, "when do we ship?", List.of()), "release",
                    "dispatch.rule:forum-release-topic", "telegram", "default",
                    "the release topic of the engineering forum goes to the release manager"),
            new Dispatched("another topic of the forum goes to the default agent", message("telegram", null, null,
                    place("forum", "-100777"), "43", "U5", null, "off topic", List.of()), "assistant", "default", "telegram",
                    "default", null),
            new Dispatched("the billing account goes to the billing helper with its account normalized", message("WhatsApp",
                    " Billing ", null, place(null, "+4915"), null, "+4915", null, "invoice?", List.of()), "billing",
                    "dispatch.rule:billing-account", "whatsapp", "billing", "the billing account goes to the billing helper"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("DISPATCHED")
    void aMessageGoesToTheAgentItsRuleOrTheDefaultNames(Dispatched c) {
        Decision<DispatchDecision> d = decide(c.message());

        assertEquals(c.agent(), d.outcome().agentId());
        assertEquals(c.matchedBy(), d.outcome().matchedBy());
        assertEquals(c.channel(), d.outcome().channel());
        assertEquals(c.account(), d.outcome().accountId());
        assertEquals(c.rule(), d.decidedBy() == null ? null : d.decidedBy().name());
    }

    // ---- more dispatch rules ------------------------------------------------------------------

    @Test
    void theVipIsRecognizedThroughAnIdentityLinkOnAnyChannel() {
        Decision<DispatchDecision> viaTelegram = decide(message("telegram", null, null, place("direct", "555"), null, "555",
                null, "hello", List.of()));
        Decision<DispatchDecision> viaSlack = decide(message("slack", null, place("workspace", "T002"), null, null, "U777",
                null, "hello", List.of()));

        assertEquals("concierge", viaTelegram.outcome().agentId());
        assertEquals("dispatch.rule:vip-sender", viaTelegram.outcome().matchedBy());
        assertEquals("concierge", viaSlack.outcome().agentId());
        assertEquals(List.of("sender"), viaTelegram.outcome().sessionPolicy().dimensions());
    }

    @Test
    void theVipWinsOverTheSupportGroupBecauseItIsTriedFirst() {
        Decision<DispatchDecision> d = decide(message("telegram", null, null, place("group", "-100123"), null, "555", null,
                "hi", List.of()));

        assertEquals("dispatch.rule:vip-sender", d.outcome().matchedBy());
        assertEquals(1, d.evaluation().fired().stream().filter(r -> r.decides()).count());
    }

    @Test
    void theCommunityGuildOverridesTheSessionDimensions() {
        Decision<DispatchDecision> a = decide(message("discord", null, place("guild", "G-Community"), place("channel", "general"),
                null, "someone", null, "hi all", List.of()));
        Decision<DispatchDecision> b = decide(message("discord", null, place("guild", "G-Community"), place("channel", "general"),
                null, "someone-else", null, "hey", List.of()));

        assertEquals("community", a.outcome().agentId());
        assertEquals(List.of("space", "chat"), a.outcome().sessionPolicy().dimensions());
        // sender is not a dimension here, so two members share the session
        assertEquals(a.outcome().sessionKey(), b.outcome().sessionKey());
    }

    @Test
    void withoutARuleTheConfigsDimensionsIsolateEachSenderInEachChat() {
        Decision<DispatchDecision> a = decide(message("telegram", null, null, place("group", "-1"), null, "u1", null, "hi", List.of()));
        Decision<DispatchDecision> b = decide(message("telegram", null, null, place("group", "-1"), null, "u2", null, "hi", List.of()));

        assertEquals(List.of("chat", "topic", "sender"), a.outcome().sessionPolicy().dimensions());
        assertNotEquals(a.outcome().sessionKey(), b.outcome().sessionKey());
        assertTrue(a.outcome().sessionKey().startsWith("agent:assistant:"));
    }

    // ---- seed 004: the scoring table ----------------------------------------------------------

    @Test
    void aGreetingStaysOnTheLightModel() {
        ModelChoice m = decide(message("telegram", null, null, null, null, "u", null, "hi there", List.of())).outcome().model();

        assertEquals(0.0, m.score());
        assertTrue(m.light());
        assertEquals("gemini-2.0-flash", m.name());
    }

    @Test
    void aMediumProseMessageScoresPointFifteenAndStaysLight() {
        ModelChoice m = decide(message("telegram", null, null, null, null, "u", null, "a".repeat(204), List.of())).outcome().model();

        assertEquals(51, m.features().tokenEstimate());
        assertEquals(0.15, m.score());
        assertTrue(m.light());
    }

    @Test
    void aLongMessageScoresPointThirtyFiveAndGoesHeavy() {
        ModelChoice m = decide(message("telegram", null, null, null, null, "u", null, "a".repeat(804), List.of())).outcome().model();

        assertEquals(201, m.features().tokenEstimate());
        assertEquals(0.35, m.score());
        assertFalse(m.light());
        assertEquals("claude-sonnet-4", m.name());
    }

    @Test
    void aCodeBlockGoesHeavyWithTheAgentsOwnModel() {
        ModelChoice m = decide(message("telegram", null, null, place("direct", "555"), null, "555", null,
                "fix this:\n```go\nfunc main() {}\n```", List.of())).outcome().model();

        assertEquals(0.40, m.score());
        assertFalse(m.light());
        assertEquals("claude-opus-4", m.name(), "the concierge names its own model in agents.json");
    }

    @Test
    void anAttachmentForcesTheHeavyModel() {
        ModelChoice m = decide(message("telegram", null, null, null, null, "u", null, "look: photo.PNG", List.of())).outcome().model();

        assertTrue(m.features().hasAttachments());
        assertEquals(1.0, m.score());
        assertFalse(m.light());
    }

    @Test
    void anActiveToolSessionWithAMediumMessageScoresPointTwentyFiveAndStaysLight() {
        ModelChoice m = decide(message("telegram", null, null, null, null, "u", null, "a".repeat(300), turns(6, 1)))
                .outcome().model();

        assertEquals(0.40, m.score(), "0.15 for the text + 0.25 for six recent tool calls");
        assertFalse(m.light());
        ModelChoice fewer = decide(message("telegram", null, null, null, null, "u", null, "a".repeat(300), turns(2, 1)))
                .outcome().model();
        assertEquals(0.25, fewer.score(), "0.15 + 0.10 for two recent tool calls");
        assertTrue(fewer.light());
    }

    @Test
    void everySignalTogetherIsCappedAtOne() {
        Decision<DispatchDecision> d = decide(message("telegram", null, null, null, null, "u", null,
                "a".repeat(900) + "```x```" + "data:image/png;base64,AAA", turns(12, 1)));

        assertEquals(1.0, d.outcome().model().score());
        assertEquals(List.of("attachments need the heavy model", "long messages lean heavy", "code blocks need the heavy model",
                "dense tool use leans heavy", "deep conversations lean a little heavy"),
                d.evaluation().fired().stream().map(r -> r.name()).toList());
    }

    @Test
    void scoresThatSumToTheThresholdExactlyGoHeavy() {
        // 0.15 + 0.10 + 0.10 is 0.35 exactly, not a double a hair below it
        ModelChoice m = decide(message("telegram", null, null, null, null, "u", null, "a".repeat(300), turns(11, 0)))
                .outcome().model();
        assertEquals(0.25, m.score(), "medium text and depth 11: 0.15 + 0.10");
        List<InboundMessage.Turn> history = new java.util.ArrayList<>(turns(10, 0));
        history.add(new InboundMessage.Turn("tool", 1));
        ModelChoice atThreshold = decide(message("telegram", null, null, null, null, "u", null, "a".repeat(300), history))
                .outcome().model();
        assertEquals(0.35, atThreshold.score());
        assertFalse(atThreshold.light());
    }

    @Test
    void explainListsEveryDispatchRuleAndMarksTheWinner() {
        Decision<DispatchDecision> d = Packs.DISPATCH.decide(BUNDLE, message("telegram", null, null, place("group", "-100123"),
                null, "555", null, "hi", List.of()), true);

        List<Evaluation.Considered> explain = d.evaluation().explain();
        assertEquals(Evaluation.Status.FIRED, explain.get(0).status());
        assertEquals(Evaluation.Status.MATCHED_BUT_CANCELLED, explain.get(1).status());
        assertEquals("the telegram support group goes to support", explain.get(1).rule().name());
    }
}
