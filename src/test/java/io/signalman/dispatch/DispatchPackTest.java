package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** A telegram message of {@code text} from sender u, after {@code history}. */
    private static InboundMessage text(String text, List<InboundMessage.Turn> history) {
        return message("telegram", null, null, null, null, "u", null, text, history);
    }

    /** Ten turns without tool calls, then a tool's turn with one: depth 11, one recent tool call. */
    private static List<InboundMessage.Turn> tenTurnsThenATool() {
        List<InboundMessage.Turn> history = new java.util.ArrayList<>(turns(10, 0));
        history.add(new InboundMessage.Turn("tool", 1));
        return history;
    }

    // ---- where a message goes: seed 004's two examples, and more rules ------------------------

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.signalman.dispatch.DispatchExamples#ALL")
    void aMessageGoesToTheAgentItsRuleOrTheDefaultNames(DispatchExamples.Dispatched c) {
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

    /** A message, and the model the scoring table chooses for it: its name, light or not, the score, the features scored. */
    private record Scored(String why, InboundMessage message, ModelChoice model) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Scored> SCORED = List.of(
            new Scored("a greeting stays on the light model", text("hi there", List.of()),
                    new ModelChoice("gemini-2.0-flash", true, 0.0, new Features(2, 0, 0, 0, false))),
            new Scored("a medium prose message scores 0.15 and stays light", text("a".repeat(204), List.of()),
                    new ModelChoice("gemini-2.0-flash", true, 0.15, new Features(51, 0, 0, 0, false))),
            new Scored("a long message scores 0.35 and goes heavy", text("a".repeat(804), List.of()),
                    new ModelChoice("claude-sonnet-4", false, 0.35, new Features(201, 0, 0, 0, false))),
            // the concierge (sender 555) names its own model in agents.json
            new Scored("a code block goes heavy with the agent's own model", message("telegram", null, null, place("direct", "555"),
                    null, "555", null, "fix this:\n```go\nfunc main() {}\n```", List.of()),
                    new ModelChoice("claude-opus-4", false, 0.40, new Features(8, 1, 0, 0, false))),
            new Scored("an attachment forces the heavy model", text("look: photo.PNG", List.of()),
                    new ModelChoice("claude-sonnet-4", false, 1.0, new Features(3, 0, 0, 0, true))),
            new Scored("medium text in an active tool session goes heavy: 0.15 + 0.25 for six recent tool calls",
                    text("a".repeat(300), turns(6, 1)), new ModelChoice("claude-sonnet-4", false, 0.40, new Features(75, 0, 6, 6, false))),
            new Scored("medium text with two recent tool calls stays light: 0.15 + 0.10", text("a".repeat(300), turns(2, 1)),
                    new ModelChoice("gemini-2.0-flash", true, 0.25, new Features(75, 0, 2, 2, false))),
            new Scored("medium text at depth 11 stays light: 0.15 + 0.10", text("a".repeat(300), turns(11, 0)),
                    new ModelChoice("gemini-2.0-flash", true, 0.25, new Features(75, 0, 0, 11, false))),
            // 0.15 + 0.10 + 0.10 is 0.35 exactly, not a double a hair below it
            new Scored("scores that sum to the threshold exactly go heavy", text("a".repeat(300), tenTurnsThenATool()),
                    new ModelChoice("claude-sonnet-4", false, 0.35, new Features(75, 0, 1, 11, false))));

    @ParameterizedTest(name = "{0}")
    @FieldSource("SCORED")
    void aMessageIsScoredOnItsFeaturesAndGetsTheModelOfItsScore(Scored c) {
        assertEquals(c.model(), decide(c.message()).outcome().model());
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
    void explainListsEveryDispatchRuleAndMarksTheWinner() {
        Decision<DispatchDecision> d = Packs.DISPATCH.decide(BUNDLE, message("telegram", null, null, place("group", "-100123"),
                null, "555", null, "hi", List.of()), true);

        List<Evaluation.Considered> explain = d.evaluation().explain();
        assertEquals(Evaluation.Status.FIRED, explain.get(0).status());
        assertEquals(Evaluation.Status.MATCHED_BUT_CANCELLED, explain.get(1).status());
        assertEquals("the telegram support group goes to support", explain.get(1).rule().name());
    }
}
