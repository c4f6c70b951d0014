package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

/** The org chart as the broker reads it (manager(a), and its errors as reference data). */
class OrgChartTest {

    private static final String FILE = "broker/org-chart.json";

    private static OrgChart read(String json) throws BundleException {
        return OrgChart.read(FILE, json.getBytes(StandardCharsets.UTF_8));
    }

    private static final String SMALL = """
            {
              "agents": [
                {"id": "knox", "role": "founder", "reports_to": null},
                {"id": "openclaw", "role": "executive", "reports_to": "knox"},
                {"id": "bot-b", "role": "trading", "reports_to": "openclaw"},
                {"id": "loner", "role": "trading"},
                {"id": "bot-a", "role": "trading", "reports_to": "openclaw"}
              ]
            }
            """;

    /** Whom the broker takes for an agent's manager in {@link #SMALL}, and why. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            a known agent's manager is its reports_to      | openclaw       | knox
            a bot's manager is its reports_to              | bot-a          | openclaw
            an unknown agent's manager is openclaw         | nobody-we-know | openclaw
            an agent reporting to null goes to openclaw    | knox           | openclaw
            an agent without reports_to goes to openclaw   | loner          | openclaw
            """)
    void managerOfIsTheReportsToOrOpenclaw(String why, String agent, String manager) throws Exception {
        assertEquals(manager, read(SMALL).managerOf(agent));
    }

    @Test
    void openclawIsTheTop() {
        assertEquals("openclaw", OrgChart.TOP);
    }

    @Test
    void tradingAgentsAreListedInFileOrder() throws Exception {
        assertEquals(List.of("bot-b", "loner", "bot-a"), read(SMALL).getTradingAgents());
    }

    @Test
    void aChartWithoutTradingAgentsHasAnEmptyRegistry() throws Exception {
        assertEquals(List.of(), read("{\"agents\": [{\"id\": \"knox\"}]}").getTradingAgents());
    }

    /** One error a refused chart must have: its line in the chart and the words its message holds. */
    private record At(int line, List<String> words) {
    }

    /** A chart the broker refuses, and its errors, all of them, in order. */
    private record Refused(String why, String json, List<At> errors) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<Refused> REFUSED = List.of(
            // "bot" is listed on lines 3 and 5: the second one is the error, pointing back at the first
            new Refused("a duplicate id is refused at the line of the second card", """
                    {
                      "agents": [
                        {"id": "bot", "role": "trading"},
                        {"id": "other"},
                        {"id": "bot", "role": "signals"}
                      ]
                    }
                    """, List.of(new At(5, List.of("\"bot\"", "line 3")))),
            // a reports to b, and b to a: both cards are reported as their own managers
            new Refused("a reports_to cycle is refused at every card in it", """
                    {
                      "agents": [
                        {"id": "a", "reports_to": "b"},
                        {"id": "b", "reports_to": "a"}
                      ]
                    }
                    """, List.of(new At(3, List.of("\"a\"")), new At(4, List.of("\"b\"")))),
            new Refused("an agent reporting to itself is refused", """
                    {"agents": [
                      {"id": "narcissus", "reports_to": "narcissus"}
                    ]}
                    """, List.of(new At(2, List.of()))),
            new Refused("an unknown manager is refused at the card that names it", """
                    {"agents": [
                      {"id": "knox"},
                      {"id": "bot", "reports_to": "ghost"}
                    ]}
                    """, List.of(new At(3, List.of("ghost")))),
            // "reportsTo" (camelCase) on line 5
            new Refused("an unknown field in a card is refused at its line", """
                    {
                      "agents": [
                        {"id": "knox"},
                        {"id": "bot",
                         "reportsTo": "knox"}
                      ]
                    }
                    """, List.of(new At(5, List.of("reportsTo")))),
            // a missing comma between two fields on line 3
            new Refused("malformed JSON is refused at the line of the mistake", """
                    {
                      "agents": [
                        {"id": "knox" "role": "founder"}
                      ]
                    }
                    """, List.of(new At(3, List.of()))));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REFUSED")
    void aChartWithAMistakeIsRefusedAtItsLines(Refused c) {
        BundleException e = assertThrows(BundleException.class, () -> read(c.json()), "the chart should be refused");

        assertEquals(c.errors().stream().map(At::line).toList(), e.errors().stream().map(BundleError::line).toList(),
                e.errors()::toString);
        for (int i = 0; i < c.errors().size(); i++) {
            BundleError error = e.errors().get(i);
            assertEquals(FILE, error.file());
            for (String w : c.errors().get(i).words()) {
                assertTrue(error.message().contains(w), error.message());
            }
        }
    }
}
