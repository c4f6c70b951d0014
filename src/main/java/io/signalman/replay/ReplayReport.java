package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a replay found: how many records were read, selected and replayed, which decisions changed
 * (grouped by {@code old rule -> new rule}), which invariants broke, on how many records
 * determinism was checked, which rules the archive never fires, and what could not be read.
 * Passing means at least one record was replayed, nothing changed, nothing broke and every
 * record was read (a torn last line is reported but does not fail). Finished and immutable:
 * {@link ReplayTally} counts while the replay runs and makes one.
 *
 * @param counts         the counts (records replayed, changed, violations...)
 * @param candidate      the candidate rules' revision
 * @param comparedWith   what they were compared with: a baseline's revision, or the recorded decisions
 * @param selection      which records were selected, as said to the analyst
 * @param readByArgument records read under each archive argument: an argument with none is an error, not a pass
 * @param changes        the first changed records in archive order (at most {@link #FIRST_CHANGES};
 *                       {@link Counts#changed()} counts them all)
 * @param groups         groups in the order of their first change in the archive
 * @param violations     the first violations of each invariant, in archive order ({@link Counts#violationCount()}
 *                       counts them all)
 * @param determinism    which records had their determinism checked
 * @param neverFired     pack name to the names of its rules that no record fired
 * @param problems       the first problems in archive order ({@link Counts#problemCount()} counts them all)
 * @param members        each cluster member's share, when the replay ran on a cluster
 */
public record ReplayReport(Counts counts, String candidate, String comparedWith, String selection, Determinism determinism,
                           double elapsedSeconds, Map<String, Long> readByArgument, List<Change> changes, List<Group> groups,
                           List<Violation> violations, Map<String, List<String>> neverFired, List<Problem> problems,
                           List<Member> members) {

    /** How many example changes each group keeps. */
    public static final int EXAMPLES = 3;
    /** How many violations of each invariant are kept (and shrunk). */
    public static final int VIOLATIONS = 5;
    /** How many changed records are kept in archive order, across groups (the gate names them). */
    public static final int FIRST_CHANGES = 20;
    /** How many problems are kept in archive order. */
    public static final int PROBLEMS = 50;

    /** One changed decision: the record, and each differing field as old and new. */
    public record Change(String file, int line, String decisionId, JsonNode input, Map<String, JsonNode[]> fields)
            implements Serializable {
    }

    /** One broken invariant on one record, with the smallest input found that still breaks it. */
    public record Violation(String invariant, String pack, String file, int line, String decisionId, JsonNode input,
                            String message, JsonNode minimal) implements Serializable {
    }

    /** The share of a cluster member: where it ran, how many records it replayed, how long it took. */
    public record Member(String member, long records, double elapsedSeconds) implements Serializable {
    }

    /** What could not be read or replayed; {@code torn} is the partial last line a crash leaves, which never fails a replay. */
    public record Problem(String message, boolean fatal, boolean torn) implements Serializable {
    }

    /** Changes from one rule to another: how many, and the first few in archive order. */
    public record Group(String from, String to, long count, List<Change> examples) {
        public Group {
            examples = List.copyOf(examples);
        }
    }

    /**
     * The report's counts: {@code read} records read, selected or not; {@code records} replayed (read
     * and selected); {@code unchanged} and {@code changed} among those the rules decided;
     * {@code determinismChecked} decided a second time to check determinism (every decided one, or a
     * sample: {@link #determinism()}).
     */
    public record Counts(long read, long records, long unchanged, long changed, long skippedTime, long skippedPack,
                         long skippedSample, long skippedArm, long violationCount, long problemCount, long fatalProblems,
                         long determinismChecked) {
    }

    public ReplayReport {
        readByArgument = java.util.Collections.unmodifiableMap(new TreeMap<>(readByArgument));
        changes = List.copyOf(changes);
        groups = List.copyOf(groups);
        violations = List.copyOf(violations);
        neverFired = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(neverFired));
        problems = List.copyOf(problems);
        members = List.copyOf(members);
    }

    public boolean passed() {
        return counts.records() > 0 && counts.changed() == 0 && counts.violationCount() == 0 && counts.fatalProblems() == 0;
    }

    /** Records the rules decided (changed or not): those the invariants were checked on. */
    public long decided() {
        return counts.unchanged() + counts.changed();
    }

    public double recordsPerSecond() {
        return elapsedSeconds <= 0 ? 0 : Math.round(counts.records() / elapsedSeconds);
    }

    /** Records left out by the selection: by --since/--until, by --pack, by --sample. */
    long skippedTime() {
        return counts.skippedTime();
    }

    long skippedPack() {
        return counts.skippedPack();
    }

    long skippedSample() {
        return counts.skippedSample();
    }

    /** Records left out because a live trial's other arm made them ({@code --arm}). */
    long skippedArm() {
        return counts.skippedArm();
    }

    long fatalProblems() {
        return counts.fatalProblems();
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("passed", passed());
        n.put("candidate_revision", candidate);
        n.put("compared_with", comparedWith);
        n.put("records", counts.records());
        n.put("unchanged", counts.unchanged());
        n.put("changed", counts.changed());
        n.put("elapsed_seconds", Math.round(elapsedSeconds * 1000) / 1000.0);
        n.put("records_per_second", recordsPerSecond());
        ObjectNode sel = n.putObject("selection");
        sel.put("what", selection);
        sel.put("read", counts.read());
        sel.put("selected", counts.records());
        ObjectNode skipped = sel.putObject("skipped");
        skipped.put("since_until", counts.skippedTime());
        skipped.put("pack", counts.skippedPack());
        skipped.put("sample", counts.skippedSample());
        skipped.put("arm", counts.skippedArm());
        ArrayNode gs = n.putArray("changes");
        for (Group g : groups()) {
            ObjectNode o = gs.addObject();
            o.put("from_rule", g.from());
            o.put("to_rule", g.to());
            o.put("count", g.count());
            ArrayNode ex = o.putArray("examples");
            g.examples().forEach(c -> ex.add(changeJson(c)));
        }
        n.put("invariant_violation_count", counts.violationCount());
        ObjectNode det = n.putObject("determinism");
        det.put("mode", determinism.flag());
        if (determinism == Determinism.SAMPLE) {
            det.put("one_in", Determinism.SAMPLE_ONE_IN);
        }
        det.put("checked", counts.determinismChecked());
        det.put("of", decided());
        ArrayNode vs = n.putArray("invariant_violations");
        for (Violation v : violations()) {
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
        n.put("problem_count", counts.problemCount());
        ArrayNode ps = n.putArray("problems");
        problems().forEach(p -> ps.add(p.message()));
        if (!members.isEmpty()) {
            ArrayNode ms = n.putArray("members");
            for (Member m : members) {
                ObjectNode o = ms.addObject();
                o.put("member", m.member());
                o.put("records", m.records());
                o.put("elapsed_seconds", Math.round(m.elapsedSeconds() * 1000) / 1000.0);
            }
        }
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
        return ReportText.of(this);
    }
}
