package io.signalman.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Agent and account ids as seed 004's agent_id.go normalizes them. */
class IdsTest {

    /** A raw id, the rule of the seed's that applies to it, and the id it normalizes to as an agent's or an account's. */
    private record Normalized(String rule, String kind, UnaryOperator<String> normalize, String raw, String id) {
        @Override
        public String toString() {
            return rule + ": " + kind + " \"" + raw + "\" is \"" + id + "\"";
        }
    }

    private static Normalized agent(String rule, String raw, String id) {
        return new Normalized(rule, "agent", Ids::agent, raw, id);
    }

    private static Normalized account(String rule, String raw, String id) {
        return new Normalized(rule, "account", Ids::account, raw, id);
    }

    private static final List<Normalized> IDS = List.of(
            agent("a valid id is only lower-cased", "Support", "support"),
            agent("a valid id is only lower-cased", "A_b-C9", "a_b-c9"),
            agent("a blank agent id is main", "", "main"),
            agent("a blank agent id is main", " \u00a0\u3000", "main"),
            agent("a blank agent id is main", null, "main"),
            account("a blank account id is default", "", "default"),
            account("a blank account id is default", "\t", "default"),
            account("a run of invalid characters collapses to one dash", "  Main Bot!! ", "main-bot"),
            agent("a run of invalid characters collapses to one dash", "Sales / EU", "sales-eu"),
            agent("a run of invalid characters collapses to one dash", "Café", "caf"),
            agent("a run of invalid characters collapses to one dash", "x😀😀y", "x-y"),
            agent("leading and trailing dashes and underscores are stripped", "_abc", "abc"),
            agent("leading and trailing dashes and underscores are stripped", "--abc__", "abc"),
            agent("leading and trailing dashes and underscores are stripped", "!abc!", "abc"),
            agent("an id of only invalid characters falls back", "!!!", "main"),
            account("an id of only invalid characters falls back", "日本", "default"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("IDS")
    void anIdIsNormalizedAsTheSeedDoes(Normalized c) {
        assertEquals(c.id(), c.normalize().apply(c.raw()));
    }

    @Test
    void longIdsAreCutAtSixtyFourCharactersAfterStripping() {
        assertEquals("a".repeat(64), Ids.agent("A".repeat(70)));
        String cut = Ids.agent("a".repeat(63) + "!" + "b".repeat(10));
        assertEquals("a".repeat(63) + "-", cut, "cut after stripping, as the seed does, so a dash may end it");
    }
}
