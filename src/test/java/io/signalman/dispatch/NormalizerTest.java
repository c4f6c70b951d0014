package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The normalized view, field by field, as seed 004 builds it. */
class NormalizerTest {

    private static final Normalizer PLAIN = new Normalizer(IdentityLinks.NONE);

    private static InboundMessage msg(String channel, String account, InboundMessage.Place space, InboundMessage.Place chat,
                                      String topic, String sender, Boolean mentioned) {
        return new InboundMessage(null, channel, account, space, chat, topic, sender, mentioned, "", List.of());
    }

    private static InboundMessage.Place place(String type, String id) {
        return new InboundMessage.Place(type, id);
    }

    @Test
    void channelIsTrimmedAndLowerCased() {
        assertEquals("telegram", PLAIN.view(msg("\u00a0TeleGram\u3000", null, null, null, null, null, null)).channel());
    }

    @Test
    void accountIsANormalizedAccountId() {
        assertEquals("default", PLAIN.view(msg("x", "", null, null, null, null, null)).account());
        assertEquals("main-bot", PLAIN.view(msg("x", " Main Bot ", null, null, null, null, null)).account());
    }

    @Test
    void spaceIsTypeColonIdWithSpaceAsTheDefaultType() {
        assertEquals("workspace:t001", PLAIN.view(msg("x", null, place(" WorkSpace ", "T001 "), null, null, null, null)).space());
        assertEquals("space:t001", PLAIN.view(msg("x", null, place(null, "T001"), null, null, null, null)).space());
        assertEquals("space:t001", PLAIN.view(msg("x", null, place("\u2003", "T001"), null, null, null, null)).space());
    }

    @Test
    void chatIsTypeColonIdWithDirectAsTheDefaultType() {
        assertEquals("group:-100123", PLAIN.view(msg("x", null, null, place("Group", "-100123"), null, null, null)).chat());
        assertEquals("direct:u1", PLAIN.view(msg("x", null, null, place("", "U1"), null, null, null)).chat());
    }

    @Test
    void aSpaceOrChatWithoutAnIdIsAbsentWhateverItsType() {
        Inbound v = PLAIN.view(msg("x", null, place("workspace", " "), place("group", null), null, null, null));
        assertEquals("", v.space());
        assertEquals("", v.chat());
        assertEquals("", PLAIN.view(msg("x", null, null, null, null, null, null)).chat());
    }

    @Test
    void topicIsTopicColonId() {
        assertEquals("topic:42", PLAIN.view(msg("x", null, null, null, " 42\u00a0", null, null)).topic());
        assertEquals("topic:abc", PLAIN.view(msg("x", null, null, null, "ABC", null, null)).topic());
        assertEquals("", PLAIN.view(msg("x", null, null, null, "\u3000", null, null)).topic());
    }

    @Test
    void senderIsTrimmedAndLowerCasedWithoutLinks() {
        assertEquals("u1", PLAIN.view(msg("x", null, null, null, null, " U1 ", null)).sender());
        assertEquals("", PLAIN.view(msg("x", null, null, null, null, null, null)).sender());
    }

    @Test
    void senderIsCanonicalThroughIdentityLinks() {
        Normalizer n = new Normalizer(new IdentityLinks(Map.of("Alice", List.of("telegram:555", " Slack:U777 "))));
        assertEquals("alice", n.view(msg("Telegram", null, null, null, null, "555", null)).sender(), "by <channel>:<id>");
        assertEquals("alice", n.view(msg("slack", null, null, null, null, "u777", null)).sender());
        assertEquals("alice", n.view(msg("email", null, null, null, null, "telegram:555", null)).sender(), "by the id as given");
        assertEquals("555", n.view(msg("whatsapp", null, null, null, null, "555", null)).sender(), "another channel's 555");
    }

    @Test
    void aPrefixedSenderMatchesALinkByItsIdAfterTheColon() {
        Normalizer n = new Normalizer(new IdentityLinks(Map.of("bob", List.of("42"))));
        assertEquals("bob", n.view(msg("telegram", null, null, null, null, "tg:42", null)).sender());
        assertEquals("tg:", n.view(msg("telegram", null, null, null, null, "tg:", null)).sender(), "nothing after the colon");
    }

    @Test
    void mentionedIsCopiedAndAbsentMeansFalse() {
        assertTrue(PLAIN.view(msg("x", null, null, null, null, null, true)).mentioned());
        assertFalse(PLAIN.view(msg("x", null, null, null, null, null, null)).mentioned());
    }
}
