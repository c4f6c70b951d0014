package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.signalman.engine.tables.TableLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a decision-table column holds, for the grid's checks. */
class CellTypesTest {

    private static String of(String kind, String code, String... values) {
        return CellTypes.of(new TableLayout.Column(kind, "", code, "", 0), List.of(values));
    }

    @Test
    void theColumnsKindCodeAndValuesSettleItsType() {
        assertEquals("integer", of("PRIORITY", "", "600", "not yet a number"));
        assertEquals("text", of("NAME", "", "600"));
        assertEquals("boolean", of("CONDITION", "hasAttachments == $param", "true", ""));
        assertEquals("integer", of("CONDITION", "tokenEstimate > $param", "200", ""));
        assertEquals("number", of("ACTION", "decide.score($param);", "1.00", "0.35"));
        assertEquals("number", of("CONDITION", "score >= $param"));
        assertEquals("text", of("CONDITION", "channel == \"$param\"", "telegram", "slack"));
    }
}
