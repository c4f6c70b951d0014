package io.signalman.engine.tables;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SortedSet;
import java.util.TreeMap;
import org.drools.decisiontable.parser.RuleSheetParserUtil;

/**
 * One rule table of a decision table as an analyst reads it: its columns (what kind each is,
 * {@code CONDITION}, {@code ACTION}, {@code NAME}..., the object it tests, its code and its label)
 * and its rows of values, each at its line. Taken from the cells Drools' own reader met while it
 * read the table into DRL ({@link DecisionTable#read}), so that what the workbench shows is what
 * was compiled, never a second reading of the file.
 *
 * @param line the line of the {@code RuleTable} cell (1-based, as rows and errors are)
 */
public record TableLayout(String name, int line, List<Column> columns, List<Row> rows) {

    /**
     * A column: its header rows, as written ({@code ""} where a row leaves it empty), and its
     * 0-based position in the sheet's rows (what an editor changes to change a cell).
     */
    public record Column(String kind, String type, String code, String label, int index) {
    }

    /** A rule of the table: its line and one value per column ({@code ""} for an empty cell). */
    public record Row(int line, List<String> cells) {

        public Row {
            cells = List.copyOf(cells);
        }
    }

    public TableLayout {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /**
     * Drools reads a rule table as: the {@code RuleTable} cell, then the row of column kinds, the
     * row of object types, the row of code, the row of labels, then one rule per row. Rows are
     * 0-based here, as Drools' listener numbers them.
     */
    private static final int KIND_ROW = 1;
    private static final int TYPE_ROW = 2;
    private static final int CODE_ROW = 3;
    private static final int LABEL_ROW = 4;

    /**
     * The layouts of the tables Drools started at {@code starts} (by row), over the cells it read
     * (by row, then column), with the rules it made at {@code ruleLines} (1-based).
     */
    static List<TableLayout> of(NavigableMap<Integer, Start> starts, Map<Integer, NavigableMap<Integer, String>> cells,
                                SortedSet<Integer> ruleLines) {
        List<TableLayout> out = new ArrayList<>();
        for (Start s : starts.values()) {
            Integer next = starts.higherKey(s.row());
            int end = next == null ? Integer.MAX_VALUE : next;
            NavigableMap<Integer, String> kinds = cells.getOrDefault(s.row() + KIND_ROW, new TreeMap<>());
            List<Integer> at = kinds.tailMap(s.column(), true).entrySet().stream().filter(e -> !e.getValue().isBlank())
                    .map(Map.Entry::getKey).toList();
            List<Column> columns = at.stream().map(c -> new Column(cell(cells, s.row() + KIND_ROW, c),
                    cell(cells, s.row() + TYPE_ROW, c), cell(cells, s.row() + CODE_ROW, c), cell(cells, s.row() + LABEL_ROW, c),
                    c)).toList();
            List<Row> rows = new ArrayList<>();
            for (int line : ruleLines) {
                int row = line - 1;
                if (row < s.row() + LABEL_ROW + 1 || row >= end) {
                    continue;
                }
                List<String> values = at.stream().map(c -> cell(cells, row, c)).toList();
                // Drools opens a rule for the row under the labels before it sees it: an empty table has one.
                if (values.stream().anyMatch(v -> !v.isBlank())) {
                    rows.add(new Row(line, values));
                }
            }
            out.add(new TableLayout(RuleSheetParserUtil.getRuleName(s.name()), s.row() + 1, columns, rows));
        }
        return out;
    }

    /** Where Drools met a {@code RuleTable} cell. */
    record Start(int row, int column, String name) {
    }

    private static String cell(Map<Integer, NavigableMap<Integer, String>> cells, int row, int column) {
        NavigableMap<Integer, String> r = cells.get(row);
        String v = r == null ? null : r.get(column);
        return v == null ? "" : v.trim();
    }
}
