package io.signalman.engine.tables;

import io.signalman.json.Unreadable;
import java.io.ByteArrayInputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.drools.decisiontable.InputType;
import org.drools.decisiontable.SpreadsheetCompiler;
import org.drools.decisiontable.parser.DefaultRuleSheetListener;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.drl.parser.DrlParser;
import org.drools.drl.parser.DroolsParserException;
import org.drools.template.model.Rule;

/**
 * A decision table ({@code .csv} or {@code .xlsx}) beside a pack's DRL, read into DRL by Drools'
 * own spreadsheet compiler, so that it compiles, lints, explains and replays exactly as DRL does.
 * What an analyst reads back points at the spreadsheet: each rule's line is its row, and an
 * error in the generated DRL is moved to the row of the rule it is in.
 *
 * @param drl     the DRL Drools generated from the table
 * @param rowOf   for each line of {@code drl} (index 0 unused), the table's row, 0 outside any rule
 * @param layouts the rule tables in it, as Drools read them (what the workbench shows)
 */
public record DecisionTable(String path, String drl, int[] rowOf, List<TableLayout> layouts) {

    public DecisionTable {
        layouts = List.copyOf(layouts);
    }

    /** Whether a bundle file is a decision table. */
    public static boolean isTable(String path) {
        String p = path.toLowerCase(Locale.ROOT);
        return p.endsWith(".csv") || p.endsWith(".xlsx") || p.endsWith(".xls");
    }

    /** Reads a table; a table Drools cannot read is a bundle error at the row it stopped on. */
    public static DecisionTable read(String path, byte[] bytes) throws Unreadable {
        RowListener listener = new RowListener();
        InputType type = path.toLowerCase(Locale.ROOT).endsWith(".csv") ? InputType.CSV : InputType.XLS;
        String drl;
        try {
            drl = new SpreadsheetCompiler().compile(new ByteArrayInputStream(bytes), type, listener);
        } catch (RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new Unreadable(listener.row + 1, 0, "this decision table cannot be read: " + why);
        }
        Map<String, Integer> rows = new HashMap<>();
        SortedSet<Integer> ruleLines = new TreeSet<>();
        for (Rule r : listener.getRuleSet().getRules()) {
            rows.put(unquote(r.getName()), r.getSpreadsheetRowNumber());
            ruleLines.add(r.getSpreadsheetRowNumber());
        }
        return new DecisionTable(path, drl, rowsByLine(drl, rows), TableLayout.of(listener.starts, listener.cells, ruleLines));
    }

    /** The table's row for a line of the generated DRL (the first row when outside any rule). */
    public int row(int drlLine) {
        if (drlLine > 0 && drlLine < rowOf.length && rowOf[drlLine] > 0) {
            return rowOf[drlLine];
        }
        for (int r : rowOf) {
            if (r > 0) {
                return r;
            }
        }
        return 1;
    }

    /** Each generated rule's lines (from Drools' parser of the generated DRL) carry its row. */
    private static int[] rowsByLine(String drl, Map<String, Integer> rows) throws Unreadable {
        int[] out = new int[(int) drl.lines().count() + 2];
        DrlParser parser = new DrlParser();
        PackageDescr descr;
        try {
            descr = parser.parse(false, drl);
        } catch (DroolsParserException e) {
            throw new Unreadable(1, 0, "the DRL read from this table does not parse: " + e.getMessage());
        }
        if (descr == null) {
            return out;
        }
        for (RuleDescr r : descr.getRules()) {
            Integer row = rows.get(r.getName());
            int end = Math.min(Math.max(r.getEndLine(), r.getLine()), out.length - 1);
            for (int line = Math.max(r.getLine(), 1); row != null && line <= end; line++) {
                out[line] = row;
            }
        }
        return out;
    }

    private static String unquote(String name) {
        return name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"") ? name.substring(1, name.length() - 1) : name;
    }

    /**
     * Remembers the row being read, so a table Drools refuses is reported at that row, and every
     * cell and where each rule table starts, so the table can be shown as Drools read it.
     */
    private static final class RowListener extends DefaultRuleSheetListener {
        private int row;
        private final Map<Integer, NavigableMap<Integer, String>> cells = new HashMap<>();
        private final NavigableMap<Integer, TableLayout.Start> starts = new TreeMap<>();

        @Override
        public void newRow(int rowNumber, int columns) {
            this.row = rowNumber;
            super.newRow(rowNumber, columns);
        }

        @Override
        public void newCell(int rowNumber, int column, String value, int mergedColStart) {
            if (value != null) {
                cells.computeIfAbsent(rowNumber, r -> new TreeMap<>()).put(column, value);
            }
            super.newCell(rowNumber, column, value, mergedColStart);
        }

        @Override
        protected void preInitRuleTable(int rowNumber, int column, String value) {
            starts.put(rowNumber, new TableLayout.Start(rowNumber, column, value));
            super.preInitRuleTable(rowNumber, column, value);
        }
    }
}
