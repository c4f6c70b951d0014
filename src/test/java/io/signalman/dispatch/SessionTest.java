package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Session policy normalization and session keys. */
class SessionTest {

    private static final Inbound VIEW = new Inbound("telegram", "default", "space:s", "group:-1", "topic:7", "alice", false);

    private static SessionPolicy policy(String... dims) {
        return new SessionPolicy(List.of(dims), Map.of());
    }

    @Test
    void onlyKnownDimensionsSurviveTrimmedLowerCasedAndOnce() {
        assertEquals(List.of("chat", "sender"), SessionPolicy.normalize(List.of(" Chat", "bogus", "SENDER", "chat", "")));
        assertEquals(List.of(), SessionPolicy.normalize(List.of("peer", "guild")));
        assertEquals(List.of("topic", "space"), SessionPolicy.normalize(List.of("topic", "space\u00a0")));
    }

    @Test
    void theKeyNamesTheAgentAndIsStable() {
        String key = SessionKeys.of("support", "telegram", "default", policy("chat", "sender"), VIEW);
        assertTrue(key.matches("agent:support:[0-9a-f]{32}"), key);
        assertEquals(key, SessionKeys.of("support", "telegram", "default", policy("chat", "sender"), VIEW));
    }

    @Test
    void theKeyDoesNotDependOnTheOrderOfDimensions() {
        assertEquals(SessionKeys.of("a", "c", "d", policy("chat", "sender"), VIEW),
                SessionKeys.of("a", "c", "d", policy("sender", "chat"), VIEW));
    }

    @Test
    void theKeyChangesWithEveryPartItCovers() {
        String base = SessionKeys.of("a", "telegram", "default", policy("chat"), VIEW);
        assertNotEquals(base, SessionKeys.of("b", "telegram", "default", policy("chat"), VIEW));
        assertNotEquals(base, SessionKeys.of("a", "slack", "default", policy("chat"), VIEW));
        assertNotEquals(base, SessionKeys.of("a", "telegram", "other", policy("chat"), VIEW));
        assertNotEquals(base, SessionKeys.of("a", "telegram", "default", policy("chat", "topic"), VIEW));
    }

    @Test
    void theKeyIgnoresFieldsOutsideThePolicy() {
        Inbound otherSender = new Inbound("telegram", "default", "space:s", "group:-1", "topic:7", "bob", false);
        assertEquals(SessionKeys.of("a", "t", "d", policy("chat"), VIEW), SessionKeys.of("a", "t", "d", policy("chat"), otherSender));
    }

    @Test
    void valuesCannotBeShiftedIntoEachOther() {
        Inbound x = new Inbound("t", "d", "", "a:b", "", "c", false);
        Inbound y = new Inbound("t", "d", "", "a", "", "b:c", false);
        assertNotEquals(SessionKeys.of("a", "t", "d", policy("chat", "sender"), x), SessionKeys.of("a", "t", "d", policy("chat", "sender"), y));
    }
}
