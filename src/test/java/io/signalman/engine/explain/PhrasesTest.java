package io.signalman.engine.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Constraints as an analyst says them; a form without words stays raw (null), never garbled. */
class PhrasesTest {

    @Test
    void theShippedRulesFormsReadAsSentences() {
        assertEquals("the subtype starts with trade.", Phrases.of("subtype str[startsWith] \"trade.\""));
        assertEquals("the priority is critical or the priority is high", Phrases.of("priority == \"critical\" || priority == \"high\""));
        assertEquals("the id is the message's from agent", Phrases.of("id == $m.fromAgent"));
        assertEquals("may not publish the message's subtype", Phrases.of("!mayPublish($m.subtype)"));
        assertEquals("the card may not publish the message's subtype", Phrases.of("!mayPublish($m.subtype)", "Card"));
        assertEquals("the card may publish the message's subtype", Phrases.of("mayPublish($m.subtype)", "Card"));
        assertEquals("the card is not muted", Phrases.of("!isMuted()", "Card"));
        assertEquals("fails the message's subtype does not hold", Phrases.of("!fails($m.subtype)", "Brake"));
        assertEquals("the token estimate is above 200 and the code block count is at most 3",
                Phrases.of("tokenEstimate > 200 && codeBlockCount <= 3"));
        assertEquals("the kind is one of user_message, tool_result", Phrases.of("kind in (\"user_message\", \"tool_result\")"));
        assertEquals("the subtype ends with .report", Phrases.of("subtype str[endsWith] \".report\""));
    }

    @Test
    void aFormItDoesNotKnowIsLeftRaw() {
        assertNull(Phrases.of("eval( 1 + 1 == 2 )"));
        assertNull(Phrases.of("x ~~ y"));
        assertNull(Phrases.of("a".repeat(2_001)));
        // A path of dots alone (the signals pack's explain met one): the raw text, never an exception
        assertNull(Phrases.of(". == \"x\""));
        assertNull(Phrases.of("$ == "));
    }
}
