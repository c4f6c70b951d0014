package io.signalman.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The org chart as the broker reads it (manager(a), and its errors as reference data). */
class OrgChartTest {

    private static final String FILE = "broker/org-chart.json";

    private static OrgChart read(String json) throws BundleException {
        return OrgChart.read(FILE, json.getBytes(StandardCharsets.UTF_8));
    }

    private static BundleException refused(String json) {
        return assertThrows(BundleException.class, () -> read(json), "the chart should be refused");
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

    @Test
    void managerOfAKnownAgentIsItsReportsTo() throws Exception {
        // Given a chart where openclaw reports to knox
        OrgChart org = read(SMALL);

        // Then openclaw's manager is knox, and a bot's is openclaw
        assertEquals("knox", org.managerOf("openclaw"));
        assertEquals("openclaw", org.managerOf("bot-a"));
    }

    @Test
    void managerOfAnUnknownAgentIsOpenclaw() throws Exception {
        assertEquals(OrgChart.TOP, read(SMALL).managerOf("nobody-we-know"));
        assertEquals("openclaw", OrgChart.TOP);
    }

    @Test
    void managerOfAnAgentReportingToNoOneIsOpenclaw() throws Exception {
        // Given knox reports to null and loner has no reports_to at all
        OrgChart org = read(SMALL);

        // Then both go to openclaw
        assertEquals("openclaw", org.managerOf("knox"));
        assertEquals("openclaw", org.managerOf("loner"));
    }

    @Test
    void tradingAgentsAreListedInFileOrder() throws Exception {
        assertEquals(List.of("bot-b", "loner", "bot-a"), read(SMALL).getTradingAgents());
    }

    @Test
    void aChartWithoutTradingAgentsHasAnEmptyRegistry() throws Exception {
        assertEquals(List.of(), read("{\"agents\": [{\"id\": \"knox\"}]}").getTradingAgents());
    }

    @Test
    void aDuplicateIdIsRefusedAtTheLineOfTheSecondCard() {
        // Given "bot" listed on lines 3 and 5
        BundleException e = refused("""
                {
                  "agents": [
                    {"id": "bot", "role": "trading"},
                    {"id": "other"},
                    {"id": "bot", "role": "signals"}
                  ]
                }
                """);

        // Then the second one is the error, pointing back at the first
        assertEquals(1, e.errors().size(), e.errors()::toString);
        BundleError error = e.errors().get(0);
        assertEquals(FILE, error.file());
        assertEquals(5, error.line());
        assertTrue(error.message().contains("\"bot\""), error.message());
        assertTrue(error.message().contains("line 3"), error.message());
    }

    @Test
    void aReportsToCycleIsRefused() {
        // Given a reports to b, and b to a
        BundleException e = refused("""
                {
                  "agents": [
                    {"id": "a", "reports_to": "b"},
                    {"id": "b", "reports_to": "a"}
                  ]
                }
                """);

        // Then both cards are reported as their own managers
        assertTrue(e.errors().stream().anyMatch(x -> x.line() == 3 && x.message().contains("\"a\"")), e.errors()::toString);
        assertTrue(e.errors().stream().anyMatch(x -> x.line() == 4 && x.message().contains("\"b\"")), e.errors()::toString);
    }

    @Test
    void anAgentReportingToItselfIsRefused() {
        BundleException e = refused("""
                {"agents": [
                  {"id": "narcissus", "reports_to": "narcissus"}
                ]}
                """);

        assertEquals(List.of(2), e.errors().stream().map(BundleError::line).toList(), e.errors()::toString);
    }

    @Test
    void anUnknownManagerIsRefusedAtTheCardThatNamesIt() {
        BundleException e = refused("""
                {"agents": [
                  {"id": "knox"},
                  {"id": "bot", "reports_to": "ghost"}
                ]}
                """);

        assertEquals(1, e.errors().size(), e.errors()::toString);
        assertEquals(3, e.errors().get(0).line());
        assertTrue(e.errors().get(0).message().contains("ghost"), e.errors().get(0).message());
    }

    @Test
    void anUnknownFieldInACardIsRefusedAtItsLine() {
        // Given a card with "reportsTo" (camelCase) on line 4
        BundleException e = refused("""
                {
                  "agents": [
                    {"id": "knox"},
                    {"id": "bot",
                     "reportsTo": "knox"}
                  ]
                }
                """);

        assertEquals(1, e.errors().size(), e.errors()::toString);
        BundleError error = e.errors().get(0);
        assertEquals(FILE, error.file());
        assertEquals(5, error.line());
        assertTrue(error.message().contains("reportsTo"), error.message());
    }

    @Test
    void malformedJsonIsRefusedAtTheLineOfTheMistake() {
        // Given a missing comma between two fields on line 3
        BundleException e = refused("""
                {
                  "agents": [
                    {"id": "knox" "role": "founder"}
                  ]
                }
                """);

        assertEquals(1, e.errors().size(), e.errors()::toString);
        assertEquals(3, e.errors().get(0).line());
    }
}
