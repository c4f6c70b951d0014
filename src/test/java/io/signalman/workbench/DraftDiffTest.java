package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.engine.RuleBundle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A draft's change by rule: a table row's change is told cell by cell, under the table's own column names. */
class DraftDiffTest {

    @TempDir
    Path dir;

    @Test
    void aChangedTableRowIsToldCellByCellAndARemovedRuleIsNamed() throws Exception {
        Path rules = TestBundles.copyOfRules(TestBundles.LIVE_RULES, dir);
        RuleBundle live = TestBundles.compile(rules);
        Path model = rules.resolve("dispatch/model.csv");
        String row = "long messages lean heavy,score,600,\"more than 200 tokens: long prompts are almost always complex\",,200,";
        String table = Files.readString(model);
        assertTrue(table.contains(row));
        Files.writeString(model, table.replace(row, row.replace(",,200,", ",,300,")));
        Path routing = rules.resolve("broker/routing.drl");
        String drl = Files.readString(routing);
        int start = drl.indexOf("rule \"critical messages go to openclaw and knox\"");
        int end = drl.indexOf("end\n", start) + 4;
        Files.writeString(routing, drl.substring(0, start) + drl.substring(end));
        RuleBundle draft = TestBundles.compile(rules);

        JsonNode diff = DraftDiff.of("d", live, draft);
        String words = diff.path("in_words").toString();
        assertTrue(words.contains("the row \\\"long messages lean heavy\\\" of dispatch is changed (dispatch/model.csv"), words);
        assertTrue(words.contains("tokens above: 200 → 300"), words);
        assertTrue(words.contains("the rule \\\"critical messages go to openclaw and knox\\\" of broker is removed"), words);
        assertEquals(2, diff.path("rules").size(), diff.toString());
        JsonNode cell = diff.path("rules").findValue("cells").get(0);
        assertEquals("tokens above", cell.path("column").asText());
        assertEquals(List.of("200", "300"), List.of(cell.path("before").asText(), cell.path("after").asText()));
    }

    @Test
    void csvCellsKeepQuotedCommasAndDoubledQuotes() {
        assertEquals(List.of("a", "b, c", "say \"hi\"", ""), DraftDiff.cells("a,\"b, c\",\"say \"\"hi\"\"\","));
    }
}
