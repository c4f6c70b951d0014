package io.signalman.engine.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Decision;
import io.signalman.engine.Evaluation;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.broker.RouteDecision;
import io.signalman.json.Json;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Decision tables beside the DRL: read by Drools into rules that compile, lint, explain and
 * decide like DRL, each rule and each error at its row of the spreadsheet.
 */
class DecisionTableTest {

    /** A broker rule as a table: salience 505 puts it between the offline and the service rules. */
    private static final List<List<String>> BROKER_TABLE = List.of(
            List.of("RuleSet", "signalman.broker"),
            List.of("Import", "io.signalman.broker.Message"),
            List.of("Variables", "io.signalman.broker.Route decide"),
            List.of(),
            List.of("RuleTable degraded services"),
            List.of("NAME", "AGENDA-GROUP", "ACTIVATION-GROUP", "PRIORITY", "METADATA", "CONDITION", "ACTION"),
            List.of("", "", "", "", "", "Message", ""),
            List.of("", "", "", "", "reason(\"$param\")", "subtype == \"$param\"", "decide.primary(\"$param\");"),
            List.of("rule", "group", "first match", "salience", "reason", "subtype", "goes to"),
            List.of("degraded services go to Sentinel", "route", "route", "505",
                    "a degraded service is watched before it goes offline", "service.degraded", "sentinel"));

    @TempDir
    Path tmp;

    @Test
    void aTableOfModelWeightsHasItsRulesAtTheirRows() throws Exception {
        // Given the dispatch pack's weights as a table (a frozen copy: an analyst's edit to rules/ changes nothing here)
        Path rules = TestBundles.copyOfRules(tmp);
        Files.delete(rules.resolve("dispatch/model.drl"));
        Files.copy(Path.of("src/test/resources/tables/model-weights.csv"), rules.resolve("dispatch/model.csv"));

        RuleInfo longMessages = rule(TestBundles.compile(rules), "dispatch", "long messages lean heavy");

        assertEquals("dispatch/model.csv", longMessages.file());
        assertEquals(11, longMessages.line(), "the row of the rule in the spreadsheet");
        assertEquals(600, longMessages.salience());
        assertEquals("more than 200 tokens: long prompts are almost always complex", longMessages.reason());
    }

    @Test
    void aCsvTableInAnyPackDecidesAndExplainsLikeDrl() throws Exception {
        // Given the broker rule above as a CSV beside routing.drl
        Path rules = TestBundles.copyOfRules(tmp);
        Files.writeString(rules.resolve("broker/degraded.csv"), csv(BROKER_TABLE));

        // When the bundle is compiled and a degraded service is routed, with explain
        RuleBundle bundle = TestBundles.compile(rules);
        Decision<RouteDecision> d = Packs.BROKER.decide(bundle, message("service.degraded"), true);

        // Then the table's rule decides, and is at its file and row
        assertEquals(List.of("sentinel"), d.outcome().primaryRecipients());
        assertEquals("degraded services go to Sentinel", d.decidedBy().name());
        assertEquals("broker/degraded.csv", d.decidedBy().file());
        assertEquals(10, d.decidedBy().line());

        // ... and for another subtype, explain names its failed constraint at the same row
        Decision<RouteDecision> other = Packs.BROKER.decide(bundle, message("trade.executed"), true);
        Evaluation.Considered c = other.evaluation().considered("degraded services go to Sentinel");
        assertEquals("subtype == \"service.degraded\"", c.check().failed().constraint());
        assertEquals(10, c.check().failed().line());
        assertEquals("trade.executed", c.check().failed().values().get("subtype"));
    }

    @Test
    void anXlsxTableIsReadToo() throws Exception {
        Path rules = TestBundles.copyOfRules(tmp);
        try (XSSFWorkbook book = new XSSFWorkbook(); OutputStream out = Files.newOutputStream(rules.resolve("broker/degraded.xlsx"))) {
            Sheet sheet = book.createSheet("rules");
            for (int r = 0; r < BROKER_TABLE.size(); r++) {
                Row row = sheet.createRow(r);
                for (int c = 0; c < BROKER_TABLE.get(r).size(); c++) {
                    row.createCell(c).setCellValue(BROKER_TABLE.get(r).get(c));
                }
            }
            sheet.addMergedRegion(new CellRangeAddress(4, 4, 0, 6));
            book.write(out);
        }

        RuleBundle bundle = TestBundles.compile(rules);

        RuleInfo r = rule(bundle, "broker", "degraded services go to Sentinel");
        assertEquals("broker/degraded.xlsx", r.file());
        assertEquals(10, r.line());
        assertEquals(List.of("sentinel"), Packs.BROKER.decide(bundle, message("service.degraded"), false)
                .outcome().primaryRecipients());
    }

    /**
     * The broker table above broken by one replacement, and the first error in it: at its row, its
     * message matching {@code message} (a regular expression found in it).
     */
    private record BrokenTable(String why, String from, String to, int row, String message) {
        @Override
        public String toString() {
            return why;
        }
    }

    private static final List<BrokenTable> BROKEN_TABLES = List.of(
            new BrokenTable("a rule of a table is linted at its row: a deciding rule whose reason cell is empty",
                    "a degraded service is watched before it goes offline", "", 10, "@reason"),
            new BrokenTable("an error in a table cell is reported at its row: a recipient action that does not compile",
                    "decide.primary(", "decide.primry(", 10, "primry"),
            new BrokenTable("a table Drools cannot read is refused at the row it stopped on", "PRIORITY", "SALIENCE", 6,
                    "^this decision table cannot be read: "));

    @ParameterizedTest(name = "{0}")
    @FieldSource("BROKEN_TABLES")
    void aBrokenTableIsRefusedAtItsRow(BrokenTable c) throws Exception {
        // Given the table, broken, beside routing.drl
        Path rules = TestBundles.copyOfRules(tmp);
        Files.writeString(rules.resolve("broker/degraded.csv"), csv(BROKER_TABLE).replace(c.from(), c.to()));

        // Then the bundle is refused at the table's row
        BundleError e = firstError(rules, "broker/degraded.csv");
        assertEquals(c.row(), e.line(), e.toString());
        assertTrue(Pattern.compile(c.message()).matcher(e.message()).find(), e.message());
    }

    private static BundleError firstError(Path rules, String file) {
        BundleException ex = assertThrows(BundleException.class, () -> Packs.compiler().compile(BundleFiles.read(rules)));
        return ex.errors().stream().filter(x -> x.file().equals(file)).findFirst()
                .orElseThrow(() -> new AssertionError("no error in " + file + ": " + ex.errors()));
    }

    private static RuleInfo rule(RuleBundle bundle, String pack, String name) {
        return bundle.requirePack(pack).rules().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    private static BrokerMessage message(String subtype) throws Exception {
        return Packs.BROKER.parseInput(Json.parse("{\"envelope\": {\"from_agent\": \"watchdog\", \"priority\": \"normal\"},"
                + " \"type\": \"event\", \"subtype\": \"" + subtype + "\"}"));
    }

    private static String csv(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        for (List<String> row : rows) {
            sb.append(String.join(",", row.stream().map(c -> c.contains(",") || c.contains("\"")
                    ? "\"" + c.replace("\"", "\"\"") + "\"" : c).toList())).append('\n');
        }
        return sb.toString();
    }
}
