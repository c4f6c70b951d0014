package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a replay found (SPEC 6): how many records, which decisions changed (grouped by
 * {@code old rule -> new rule}), which invariants broke, which rules the archive never fires, and
 * what could not be read. Passing means nothing changed, nothing broke and every record was read
 * (a torn last line is reported but does not fail).
 */
public final class ReplayReport {

    /** How many example changes each group keeps. */
    public static final int EXAMPLES = 3;

    /** One changed decision: the record, and each differing field as old and new. */
    public record Change(String file, int line, String decisionId, JsonNode input, Map<String, JsonNode[]> fields) {
    }

    /** One broken invariant on one record. */
    /** One broken invariant on one record, with the smallest input found that still breaks it. */
    public record Violation(String invariant, String pack, String file, int line, String decisionId, JsonNode input,
                            String message, JsonNode minimal) {
    }

    /** Changes from one rule to another. */
    public static final class Group {
        final String from;
        final String to;
        int count;
        final List<Change> examples = new ArrayList<>();

        Group(String from, String to) {
            this.from = from;
            this.to = to;
        }

        public int count() {
            return count;
        }

        public String from() {
            return from;
        }

        public String to() {
            return to;
        }

        public List<Change> examples() {
            return examples;
        }
    }

    String candidate;
    String comparedWith;
    int records;
    int unchanged;
    final List<Change> changes = new ArrayList<>();
    final Map<String, Group> groups = new LinkedHashMap<>();
    final List<Violation> violations = new ArrayList<>();
    final Map<String, List<String>> neverFired = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();
    int fatalProblems;

    void changed(String oldRule, String newRule, Change change) {
        changes.add(change);
        Group g = groups.computeIfAbsent(oldRule + "\u0000" + newRule, k -> new Group(oldRule, newRule));
        g.count++;
        if (g.examples.size() < EXAMPLES) {
            g.examples.add(change);
        }
    }

    public boolean passed() {
        return changes.isEmpty() && violations.isEmpty() && fatalProblems == 0;
    }

    public int records() {
        return records;
    }

    public int unchanged() {
        return unchanged;
    }

    public List<Change> changes() {
        return changes;
    }

    public List<Group> groups() {
        return List.copyOf(groups.values());
    }

    public List<Violation> violations() {
        return violations;
    }

    /** Pack name to the names of its rules that no record fired. */
    public Map<String, List<String>> neverFired() {
        return neverFired;
    }

    public List<String> problems() {
        return problems;
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("passed", passed());
        n.put("candidate_revision", candidate);
        n.put("compared_with", comparedWith);
        n.put("records", records);
        n.put("unchanged", unchanged);
        n.put("changed", changes.size());
        ArrayNode gs = n.putArray("changes");
        for (Group g : groups.values()) {
            ObjectNode o = gs.addObject();
            o.put("from_rule", g.from);
            o.put("to_rule", g.to);
            o.put("count", g.count);
            ArrayNode ex = o.putArray("examples");
            g.examples.forEach(c -> ex.add(changeJson(c)));
        }
        ArrayNode vs = n.putArray("invariant_violations");
        for (Violation v : violations) {
            ObjectNode o = vs.addObject();
            o.put("invariant", v.invariant());
            o.put("pack", v.pack());
            o.put("record", v.file() + ":" + v.line());
            o.put("decision_id", v.decisionId());
            o.set("input", v.input());
            o.set("minimal_input", v.minimal());
            o.put("message", v.message());
        }
        ObjectNode nf = n.putObject("never_fired");
        neverFired.forEach((pack, rules) -> rules.forEach(nf.withArray(pack)::add));
        problems.forEach(n.putArray("problems")::add);
        return n;
    }

    private static ObjectNode changeJson(Change c) {
        ObjectNode o = Json.object();
        o.put("record", c.file() + ":" + c.line());
        o.put("decision_id", c.decisionId());
        o.set("input", c.input());
        ObjectNode diff = o.putObject("diff");
        c.fields().forEach((field, v) -> {
            ObjectNode d = diff.putObject(field);
            d.set("old", v[0]);
            d.set("new", v[1]);
        });
        return o;
    }

    /** The report as an analyst reads it in a terminal. */
    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append("replayed ").append(records).append(" records against rules ").append(candidate)
                .append(", compared with ").append(comparedWith).append('\n');
        sb.append("  unchanged: ").append(unchanged).append('\n');
        sb.append("  changed:   ").append(changes.size()).append('\n');
        for (Group g : groups.values()) {
            sb.append("    \"").append(g.from).append("\" -> \"").append(g.to).append("\": ").append(g.count).append('\n');
            for (Change c : g.examples) {
                sb.append("      ").append(c.file()).append(':').append(c.line()).append(' ').append(Json.write(c.input())).append('\n');
                c.fields().forEach((field, v) -> sb.append("        ").append(field).append(": ")
                        .append(Json.write(v[0])).append(" -> ").append(Json.write(v[1])).append('\n'));
            }
        }
        sb.append("  invariant violations: ").append(violations.size()).append('\n');
        for (Violation v : violations) {
            sb.append("    ").append(v.invariant()).append(" (").append(v.pack()).append(") at ").append(v.file()).append(':')
                    .append(v.line()).append(": ").append(v.message()).append("\n      input: ").append(Json.write(v.input()))
                    .append("\n      smallest input that still breaks it: ").append(Json.write(v.minimal())).append('\n');
        }
        long never = neverFired.values().stream().mapToLong(List::size).sum();
        sb.append("  rules never fired: ").append(never == 0 ? "none" : String.valueOf(never)).append('\n');
        neverFired.forEach((pack, rules) -> rules.forEach(r -> sb.append("    ").append(pack).append(": \"").append(r)
                .append("\"\n")));
        for (String p : problems) {
            sb.append("  ").append(p).append('\n');
        }
        sb.append(passed() ? "PASS" : "FAIL").append(": ").append(changes.size()).append(" changed, ")
                .append(violations.size()).append(" invariant violations, ").append(fatalProblems).append(" unreadable records\n");
        return sb.toString();
    }
}
