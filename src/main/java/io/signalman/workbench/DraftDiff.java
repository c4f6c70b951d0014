package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code GET /workbench/api/drafts/{id}/diff}: what a draft changes, by rule rather than by line,
 * for the approver and the operator. A DRL rule is added, changed or removed, with its text
 * before and after and its line in each; a decision-table row is a rule too, and its change is
 * told cell by cell under the table's column names ("tokens above: 200 → 300"). A file changed
 * outside its rules (imports, a table's header, reference data) is named as such.
 */
final class DraftDiff {

    private DraftDiff() {
    }

    static ObjectNode of(String id, RuleBundle live, RuleBundle draft) {
        ObjectNode out = Json.object().put("draft", id).put("live_revision", live.revision()).put("draft_revision", draft.revision());
        ArrayNode rules = out.putArray("rules");
        ArrayNode words = out.putArray("in_words");
        TreeSet<String> packs = new TreeSet<>(draft.packs().keySet());
        packs.addAll(live.packs().keySet());
        List<String> explained = new ArrayList<>();
        for (String pack : packs) {
            Map<String, RuleInfo> before = byName(live.pack(pack).map(CompiledPack::rules).orElse(List.of()));
            Map<String, RuleInfo> after = byName(draft.pack(pack).map(CompiledPack::rules).orElse(List.of()));
            List<String> names = new ArrayList<>(after.keySet());
            before.keySet().stream().filter(n -> !after.containsKey(n)).forEach(names::add);
            for (String name : names) {
                RuleInfo was = before.get(name);
                RuleInfo is = after.get(name);
                String textBefore = was == null ? null : text(live, was);
                String textAfter = is == null ? null : text(draft, is);
                if (was != null && is != null && textBefore.equals(textAfter)) {
                    continue;
                }
                String change = was == null ? "added" : is == null ? "removed" : "changed";
                RuleInfo at = is != null ? is : was;
                boolean row = !at.file().endsWith(".drl");
                ObjectNode r = rules.addObject().put("pack", pack).put("rule", name).put("change", change).put("file", at.file())
                        .put("table_row", row);
                r.put("line_before", was == null ? null : was.line()).put("line_after", is == null ? null : is.line());
                r.put("before", textBefore).put("after", textAfter);
                StringBuilder w = new StringBuilder((row ? "the row \"" : "the rule \"") + name + "\" of " + pack + " is " + change
                        + " (" + at.file() + " line " + at.line() + ")");
                if (row && was != null && is != null) {
                    ArrayNode cells = r.putArray("cells");
                    List<String> labels = labels(draft, is);
                    List<String> a = cells(textBefore);
                    List<String> b = cells(textAfter);
                    List<String> said = new ArrayList<>();
                    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                        String x = i < a.size() ? a.get(i) : "";
                        String y = i < b.size() ? b.get(i) : "";
                        if (!x.equals(y)) {
                            String column = i < labels.size() && !labels.get(i).isBlank() ? labels.get(i) : "column " + (i + 1);
                            cells.addObject().put("column", column).put("before", x).put("after", y);
                            said.add(column + ": " + (x.isEmpty() ? "(empty)" : x) + " → " + (y.isEmpty() ? "(empty)" : y));
                        }
                    }
                    if (!said.isEmpty()) {
                        w.append(": ").append(String.join("; ", said));
                    }
                }
                words.add(w.toString());
                explained.add(at.file());
            }
        }
        ArrayNode files = out.putArray("other_changes");
        TreeSet<String> paths = new TreeSet<>(draft.files().paths());
        paths.addAll(live.files().paths());
        for (String p : paths) {
            byte[] a = live.files().paths().contains(p) ? live.files().bytes(p) : null;
            byte[] b = draft.files().paths().contains(p) ? draft.files().bytes(p) : null;
            if (!Arrays.equals(a, b) && !explained.contains(p)) {
                String how = a == null ? "added" : b == null ? "removed" : "changed";
                files.addObject().put("file", p).put("change", how);
                words.add("the file " + p + " is " + how + (p.endsWith(".drl") || io.signalman.engine.tables.DecisionTable.isTable(p)
                        ? " outside its rules (imports, declarations, a table's header)" : ""));
            }
        }
        out.put("changes", rules.size() + files.size());
        return out;
    }

    private static Map<String, RuleInfo> byName(List<RuleInfo> rules) {
        Map<String, RuleInfo> m = new LinkedHashMap<>();
        rules.stream().sorted(Comparator.comparing(RuleInfo::file).thenComparingInt(RuleInfo::line)).forEach(r -> m.put(r.name(), r));
        return m;
    }

    /** A DRL rule's text, from its line to the line before the next rule of its file; a table row's line. */
    private static String text(RuleBundle b, RuleInfo r) {
        List<String> lines = lines(b, r.file());
        if (!r.file().endsWith(".drl")) {
            return r.line() >= 1 && r.line() <= lines.size() ? lines.get(r.line() - 1) : "";
        }
        int end = lines.size();
        for (RuleInfo o : b.pack(r.pack()).map(CompiledPack::rules).orElse(List.of())) {
            if (o.file().equals(r.file()) && o.line() > r.line() && o.line() - 1 < end) {
                end = o.line() - 1;
            }
        }
        List<String> mine = new ArrayList<>(lines.subList(Math.max(0, r.line() - 1), Math.max(r.line() - 1, end)));
        while (!mine.isEmpty() && mine.get(mine.size() - 1).isBlank()) {
            mine.remove(mine.size() - 1);
        }
        return String.join("\n", mine);
    }

    /** The table's column names: the line just above its first row. */
    private static List<String> labels(RuleBundle b, RuleInfo row) {
        List<String> lines = lines(b, row.file());
        int first = b.pack(row.pack()).map(CompiledPack::rules).orElse(List.of()).stream()
                .filter(o -> o.file().equals(row.file())).mapToInt(RuleInfo::line).min().orElse(row.line());
        return first >= 2 && first - 2 < lines.size() ? cells(lines.get(first - 2)) : List.of();
    }

    private static List<String> lines(RuleBundle b, String file) {
        return b.files().paths().contains(file) ? new String(b.files().bytes(file), StandardCharsets.UTF_8).lines().toList() : List.of();
    }

    /** One CSV line's cells: commas split, double quotes group (a doubled one is a quote). */
    static List<String> cells(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }
}
