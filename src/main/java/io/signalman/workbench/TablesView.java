package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.tables.DecisionTable;
import io.signalman.engine.tables.TableLayout;
import io.signalman.json.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The decision tables of a bundle as the workbench shows them: each table file with its rule
 * tables read by {@link DecisionTable#read}, the reader the compiler uses, and the errors and
 * warnings the check found in it, each at its row. A table Drools cannot read has no rule tables,
 * only its error at the row it stopped on.
 */
final class TablesView {

    private TablesView() {
    }

    /**
     * {@code {"draft", "revision", "files": [{"path", "tables": [{"name", "line", "columns":
     * [{"kind", "type", "code", "label", "index", "value_type"}], "rows": [{"line", "cells"}]}],
     * "errors", "warnings"}]}}, {@code index} being the column's place in the CSV's rows,
     * files in path order.
     *
     * @param draft    the draft's id, or null for the live rules
     * @param errors   the bundle's check errors (only those in a table are kept)
     * @param warnings the same for its lint warnings
     */
    static ObjectNode of(String draft, BundleFiles files, List<BundleError> errors, List<BundleError> warnings) {
        ObjectNode view = Json.object();
        view.put("draft", draft);
        view.put("revision", files.revision());
        ArrayNode out = view.putArray("files");
        for (String path : files.paths()) {
            if (!DecisionTable.isTable(path)) {
                continue;
            }
            ObjectNode n = out.addObject();
            n.put("path", path);
            ArrayNode tables = n.putArray("tables");
            Set<BundleError> problems = new LinkedHashSet<>();
            try {
                DecisionTable.read(path, files.bytes(path)).layouts().forEach(t -> tables.add(toJson(t)));
            } catch (io.signalman.json.Unreadable e) {
                problems.add(BundleError.of(path, e));
            }
            errors.stream().filter(e -> e.file().equals(path)).forEach(problems::add);
            n.set("errors", BundleError.toJson(List.copyOf(problems)));
            n.set("warnings", BundleError.toJson(warnings.stream().filter(w -> w.file().equals(path)).toList()));
        }
        return view;
    }

    private static ObjectNode toJson(TableLayout t) {
        ObjectNode n = Json.object();
        n.put("name", t.name());
        n.put("line", t.line());
        ArrayNode columns = n.putArray("columns");
        for (int i = 0; i < t.columns().size(); i++) {
            TableLayout.Column c = t.columns().get(i);
            int at = i;
            columns.addObject().put("kind", c.kind()).put("type", c.type()).put("code", c.code()).put("label", c.label())
                    .put("index", c.index()).put("value_type", CellTypes.of(c, t.rows().stream().map(r -> r.cells().get(at)).toList()));
        }
        ArrayNode rows = n.putArray("rows");
        for (TableLayout.Row r : t.rows()) {
            ObjectNode row = rows.addObject().put("line", r.line());
            r.cells().forEach(row.putArray("cells")::add);
        }
        return n;
    }
}
