package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.Json;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a replay found: how many records were read, selected and replayed, which
 * decisions changed (grouped by {@code old rule -> new rule}), which invariants broke, which rules
 * the archive never fires, and what could not be read. Passing means at least one record was
 * replayed, nothing changed, nothing broke and every record was read (a torn last line is
 * reported but does not fail).
 *
 * <p>Memory is bounded whatever the archive's size: counts, and the first examples by archive
 * position (see {@link Firsts}). Each replaying thread, and each cluster member, fills its own
 * report; {@link #merge} adds them up, and the result is the same however the records were split.
 * Larger than most classes here because it is the report's one definition: its counts, its
 * merge, and its two renderings, which must agree.
 */
public final class ReplayReport implements Serializable {

    private static final long serialVersionUID = 1L;

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

    /** Changes from one rule to another. */
    public static final class Group implements Serializable {
        private static final long serialVersionUID = 1L;
        final String from;
        final String to;
        long count;
        final Firsts<Change> examples = new Firsts<>(EXAMPLES);

        Group(String from, String to) {
            this.from = from;
            this.to = to;
        }

        public long count() {
            return count;
        }

        public String from() {
            return from;
        }

        public String to() {
            return to;
        }

        public List<Change> examples() {
            return examples.values();
        }
    }

    String candidate;
    String comparedWith;
    String selection = "every record";
    long read;
    long records;
    long unchanged;
    long changed;
    long skippedTime;
    long skippedPack;
    long skippedSample;
    long skippedArm;
    long violationCount;
    long problemCount;
    long fatalProblems;
    double elapsedSeconds;
    final Map<String, Long> readByArgument = new TreeMap<>();
    final Map<String, Group> groups = new HashMap<>();
    final Firsts<Change> firstChanges = new Firsts<>(FIRST_CHANGES);
    final Map<String, Firsts<Violation>> violations = new TreeMap<>();
    final Map<String, Set<String>> fired = new TreeMap<>();
    final Map<String, List<String>> neverFired = new LinkedHashMap<>();
    final Firsts<String> problems = new Firsts<>(PROBLEMS);
    final List<Member> members = new ArrayList<>();
    /** The archive files (by index) this report covers: a cluster replay checks that the parts cover all. */
    final java.util.BitSet files = new java.util.BitSet();
    /** How many files the whole archive has, as the replaying side listed it. */
    int filesListed;
    /** Whether {@link #neverFired} has been worked out (by {@link #finish}, or merged from parts that had). */
    boolean finished;

    void changed(long position, String oldRule, String newRule, Change change) {
        changed++;
        firstChanges.offer(position, change);
        Group g = groups.computeIfAbsent(oldRule + "\u0000" + newRule, k -> new Group(oldRule, newRule));
        g.count++;
        g.examples.offer(position, change);
    }

    /** Whether a violation at this position would be kept, and so is worth shrinking. */
    boolean wantsViolation(String pack, String invariant, long position) {
        Firsts<Violation> kept = violations.get(pack + "\u0000" + invariant);
        return kept == null || kept.wants(position);
    }

    void violation(long position, Violation v) {
        violationCount++;
        violations.computeIfAbsent(v.pack() + "\u0000" + v.invariant(), k -> new Firsts<>(VIOLATIONS)).offer(position, v);
    }

    void problem(long position, String message, boolean fatal) {
        problemCount++;
        if (fatal) {
            fatalProblems++;
        }
        problems.offer(position, message);
    }

    void fired(String pack, String rule) {
        fired.computeIfAbsent(pack, k -> new HashSet<>()).add(rule);
    }

    /** Adds another part of the same replay (another thread's, another member's) to this one. */
    public void merge(ReplayReport o) {
        read += o.read;
        records += o.records;
        unchanged += o.unchanged;
        changed += o.changed;
        skippedTime += o.skippedTime;
        skippedPack += o.skippedPack;
        skippedSample += o.skippedSample;
        skippedArm += o.skippedArm;
        violationCount += o.violationCount;
        problemCount += o.problemCount;
        fatalProblems += o.fatalProblems;
        o.readByArgument.forEach((k, v) -> readByArgument.merge(k, v, Long::sum));
        firstChanges.addAll(o.firstChanges);
        o.groups.forEach((k, g) -> {
            Group mine = groups.computeIfAbsent(k, x -> new Group(g.from, g.to));
            mine.count += g.count;
            mine.examples.addAll(g.examples);
        });
        o.violations.forEach((k, v) -> violations.computeIfAbsent(k, x -> new Firsts<>(VIOLATIONS)).addAll(v));
        o.fired.forEach((k, v) -> fired.computeIfAbsent(k, x -> new HashSet<>()).addAll(v));
        problems.addAll(o.problems);
        members.addAll(o.members);
        files.or(o.files);
        filesListed = Math.max(filesListed, o.filesListed);
        candidate = candidate == null ? o.candidate : candidate;
        comparedWith = comparedWith == null ? o.comparedWith : comparedWith;
        selection = o.selection;
        if (o.finished) {
            mergeNeverFired(o);
        }
    }

    /** A rule no part fired is one that every part lists as never fired. */
    private void mergeNeverFired(ReplayReport o) {
        if (!finished) {
            o.neverFired.forEach((pack, rules) -> neverFired.put(pack, List.copyOf(rules)));
            finished = true;
            return;
        }
        Map<String, List<String>> both = new LinkedHashMap<>();
        neverFired.forEach((pack, rules) -> {
            List<String> theirs = o.neverFired.getOrDefault(pack, List.of());
            List<String> kept = rules.stream().filter(theirs::contains).toList();
            if (!kept.isEmpty()) {
                both.put(pack, kept);
            }
        });
        neverFired.clear();
        neverFired.putAll(both);
    }

    /** Marks this report as one cluster member's share (before the shares are merged). */
    public void sharedBy(String member) {
        members.add(new Member(member, records, elapsedSeconds));
    }

    /** The wall-clock time of the whole replay, when something other than {@link Replayer} ran it (a cluster job). */
    public void elapsedSeconds(double seconds) {
        elapsedSeconds = seconds;
    }

    /** Whether every file of the archive was replayed by some part (a cluster job checks it before it reports). */
    public boolean complete() {
        return files.cardinality() == filesListed && files.nextSetBit(filesListed) < 0;
    }

    /** Records that this report's files are a share of an archive of {@code total} files. */
    public void shareOf(int total) {
        filesListed = total;
    }

    /** Works out which of the candidate's rules no replayed record fired. */
    void finish(RuleBundle candidateRules) {
        finished = true;
        neverFired.clear();
        for (CompiledPack pack : candidateRules.packs().values().stream().sorted(Comparator.comparing(CompiledPack::name)).toList()) {
            Set<String> seen = fired.getOrDefault(pack.name(), Set.of());
            List<String> never = pack.rules().stream().map(RuleInfo::name).filter(n -> !seen.contains(n)).toList();
            if (!never.isEmpty()) {
                neverFired.put(pack.name(), never);
            }
        }
    }

    public boolean passed() {
        return records > 0 && changed == 0 && violationCount == 0 && fatalProblems == 0;
    }

    /** Records replayed (read and selected). */
    public long records() {
        return records;
    }

    /** Records read, selected or not. */
    public long read() {
        return read;
    }

    /** Records read under each archive argument: an argument with none is an error, not a pass. */
    public Map<String, Long> readByArgument() {
        return readByArgument;
    }

    public long unchanged() {
        return unchanged;
    }

    /** How many replayed decisions changed. */
    public long changed() {
        return changed;
    }

    /** The first changed records in archive order (at most {@link #FIRST_CHANGES}; {@link #changed()} counts them all). */
    public List<Change> changes() {
        return firstChanges.values();
    }

    /** Groups in the order of their first change in the archive. */
    public List<Group> groups() {
        return groups.values().stream().sorted(Comparator.comparingLong(g -> g.examples.first())).toList();
    }

    /** The first violations of each invariant, in archive order ({@link #violationCount()} counts them all). */
    public List<Violation> violations() {
        TreeMap<Long, List<Violation>> all = new TreeMap<>();
        violations.values().forEach(f -> f.entries().forEach((k, v) -> all.computeIfAbsent(k, x -> new ArrayList<>()).add(v)));
        return all.values().stream().flatMap(List::stream).toList();
    }

    public long violationCount() {
        return violationCount;
    }

    /** Pack name to the names of its rules that no record fired. */
    public Map<String, List<String>> neverFired() {
        return neverFired;
    }

    /** The first problems in archive order ({@link #problemCount()} counts them all). */
    public List<String> problems() {
        return problems.values();
    }

    public long problemCount() {
        return problemCount;
    }

    public double elapsedSeconds() {
        return elapsedSeconds;
    }

    public double recordsPerSecond() {
        return elapsedSeconds <= 0 ? 0 : Math.round(records / elapsedSeconds);
    }

    /** Each cluster member's share, when the replay ran on a cluster. */
    public List<Member> members() {
        return members;
    }

    public String selection() {
        return selection;
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("passed", passed());
        n.put("candidate_revision", candidate);
        n.put("compared_with", comparedWith);
        n.put("records", records);
        n.put("unchanged", unchanged);
        n.put("changed", changed);
        n.put("elapsed_seconds", Math.round(elapsedSeconds * 1000) / 1000.0);
        n.put("records_per_second", recordsPerSecond());
        ObjectNode sel = n.putObject("selection");
        sel.put("what", selection);
        sel.put("read", read);
        sel.put("selected", records);
        ObjectNode skipped = sel.putObject("skipped");
        skipped.put("since_until", skippedTime);
        skipped.put("pack", skippedPack);
        skipped.put("sample", skippedSample);
        skipped.put("arm", skippedArm);
        ArrayNode gs = n.putArray("changes");
        for (Group g : groups()) {
            ObjectNode o = gs.addObject();
            o.put("from_rule", g.from);
            o.put("to_rule", g.to);
            o.put("count", g.count);
            ArrayNode ex = o.putArray("examples");
            g.examples().forEach(c -> ex.add(changeJson(c)));
        }
        n.put("invariant_violation_count", violationCount);
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
        n.put("problem_count", problemCount);
        problems().forEach(n.putArray("problems")::add);
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
