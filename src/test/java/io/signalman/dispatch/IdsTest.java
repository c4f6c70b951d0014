package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Agent and account ids as seed 004's agent_id.go normalizes them. */
class IdsTest {

    @Test
    void validIdsAreOnlyLowerCased() {
        assertEquals("support", Ids.agent("Support"));
        assertEquals("a_b-c9", Ids.agent("A_b-C9"));
    }

    @Test
    void blankIdsBecomeMainOrDefault() {
        assertEquals("main", Ids.agent(""));
        assertEquals("main", Ids.agent(" \u00a0\u3000"));
        assertEquals("main", Ids.agent(null));
        assertEquals("default", Ids.account(""));
        assertEquals("default", Ids.account("\t"));
    }

    @Test
    void runsOfInvalidCharactersCollapseToOneDash() {
        assertEquals("main-bot", Ids.account("  Main Bot!! "));
        assertEquals("sales-eu", Ids.agent("Sales / EU"));
        assertEquals("caf", Ids.agent("Café"));
        assertEquals("x-y", Ids.agent("x😀😀y"));
    }

    @Test
    void leadingAndTrailingDashesAndUnderscoresAreStripped() {
        assertEquals("abc", Ids.agent("_abc"));
        assertEquals("abc", Ids.agent("--abc__"));
        assertEquals("abc", Ids.agent("!abc!"));
    }

    @Test
    void idsOfOnlyInvalidCharactersFallBack() {
        assertEquals("main", Ids.agent("!!!"));
        assertEquals("default", Ids.account("日本"));
    }

    @Test
    void longIdsAreCutAtSixtyFourCharactersAfterStripping() {
        assertEquals("a".repeat(64), Ids.agent("A".repeat(70)));
        String cut = Ids.agent("a".repeat(63) + "!" + "b".repeat(10));
        assertEquals("a".repeat(63) + "-", cut, "cut after stripping, as the seed does, so a dash may end it");
    }
}
