package io.signalman.dispatch;

import java.util.List;

/**
 * Where a message goes: seed 004's two examples, with the seed's own texts, and a case of each more
 * dispatch rule. {@link DispatchPackTest} decides them in process, {@code DispatchHttpTest} over HTTP.
 */
public final class DispatchExamples {

    /**
     * A message and where it goes: the agent, what matched ({@code default}: no rule, so
     * {@code rule} is null), and the channel and account as normalized.
     */
    public record Dispatched(String why, InboundMessage message, String agent, String matchedBy, String channel,
                             String account, String rule) {
        @Override
        public String toString() {
            return why;
        }
    }

    public static final List<Dispatched> ALL = List.of(
            // seed 004's examples
            new Dispatched("the telegram support group goes to support", message("Telegram", "", null,
                    place("group", "-100123"), null, "U1", null, "my order is late"), "support", "dispatch.rule:support-group",
                    "telegram", "default", "the telegram support group goes to support"),
            new Dispatched("slack mentions in workspace T001 go to support", message("Slack", null, place("workspace", "T001"),
                    place("channel", "C42"), null, "U2", true, "@bot help"), "support", "dispatch.rule:slack-mentions",
                    "slack", "default", "mentions in the slack workspace T001 go to support"),
            new Dispatched("slack messages in workspace T001 without a mention go to the default agent", message("slack", null,
                    place("workspace", "T001"), place("channel", "C9"), null, "U2", false, "chatter"), "assistant",
                    "default", "slack", "default", null),
            // more dispatch rules
            new Dispatched("the release topic of the forum goes to the release manager", message("telegram", null, null,
                    place("forum", "-100777"), " 42 ", "U5", null, "when do we ship?"), "release",
                    "dispatch.rule:forum-release-topic", "telegram", "default",
                    "the release topic of the engineering forum goes to the release manager"),
            new Dispatched("another topic of the forum goes to the default agent", message("telegram", null, null,
                    place("forum", "-100777"), "43", "U5", null, "off topic"), "assistant", "default", "telegram",
                    "default", null),
            new Dispatched("the billing account goes to the billing helper with its account normalized", message("WhatsApp",
                    " Billing ", null, place(null, "+4915"), null, "+4915", null, "invoice?"), "billing",
                    "dispatch.rule:billing-account", "whatsapp", "billing", "the billing account goes to the billing helper"));

    private DispatchExamples() {
    }

    private static InboundMessage message(String channel, String account, InboundMessage.Place space, InboundMessage.Place chat,
                                          String topic, String sender, Boolean mentioned, String text) {
        return new InboundMessage(null, channel, account, space, chat, topic, sender, mentioned, text, List.of());
    }

    private static InboundMessage.Place place(String type, String id) {
        return new InboundMessage.Place(type, id);
    }
}
