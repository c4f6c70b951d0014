package io.signalman.replay;

import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A replay's counts while it runs: one per replaying thread, and one per cluster member, each the
 * only writer of its own; {@link #merge} adds another part to it, every count included, and the
 * result is the same however the records were split. Bounded whatever the archive's size: counts,
 * and the first examples by archive position ({@link Firsts}). When it is done, {@link #report}
 * makes the finished, immutable {@link ReplayReport} that the command line, the workbench and the
 * gate read.
 */
public final class ReplayTally implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Changes from one rule to another, while they are counted. */
    private static final class Group implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String from;
        private final String to;
        private long count;
        private final Firsts<ReplayReport.Change> examples = new Firsts<>(ReplayReport.EXAMPLES);

        private Group(String from, String to) {
            this.from = from;
            this.to = to;
        }
    }

    private String candidate;
    private String comparedWith;
    private String selection = "every record";
    /** Which records have their determinism checked; null until a replay says (a part made by hand, in a test). */
    private Determinism determinism;
    private long read;
    private long records;
    private long unchanged;
    private long changed;
    private long skippedTime;
    private long skippedPack;
    private long skippedSample;
    private long skippedArm;
    private long violationCount;
    /** Records whose determinism was checked (decided a second time): all, or the sample {@link Determinism} picks. */
    private long determinismChecked;
    private long problemCount;
    private long fatalProblems;
    private double elapsedSeconds;
    private final Map<String, Long> readByArgument = new TreeMap<>();
    private final Map<String, Group> groups = new HashMap<>();
    private final Firsts<ReplayReport.Change> firstChanges = new Firsts<>(ReplayReport.FIRST_CHANGES);
    private final Map<String, Firsts<ReplayReport.Violation>> violations = new TreeMap<>();
    private final Map<String, Set<String>> fired = new TreeMap<>();
    private final Map<String, List<String>> neverFired = new LinkedHashMap<>();
    private final Firsts<ReplayReport.Problem> problems = new Firsts<>(ReplayReport.PROBLEMS);
    private final List<ReplayReport.Member> members = new ArrayList<>();
    /** The archive files (by index) this tally covers: a cluster replay checks that the parts cover all. */
    private final BitSet files = new BitSet();
    /** How many files the whole archive has, as the replaying side listed it. */
    private int filesListed;
    /** Whether {@link #neverFired} has been worked out (by {@link #finish}, or merged from parts that had). */
    private boolean finished;

    void read(String argument, long n) {
        readByArgument.merge(argument, n, Long::sum);
    }

    /** One record read; {@code skip} says whether the selection kept it. */
    void selected(Selection.Skip skip) {
        read++;
        switch (skip) {
            case TIME -> skippedTime++;
            case PACK -> skippedPack++;
            case SAMPLE -> skippedSample++;
            case ARM -> skippedArm++;
            case NONE -> records++;
        }
    }

    void unchanged() {
        unchanged++;
    }

    void changed(long position, String oldRule, String newRule, ReplayReport.Change change) {
        changed++;
        firstChanges.offer(position, change);
        Group g = groups.computeIfAbsent(oldRule + "\u0000" + newRule, k -> new Group(oldRule, newRule));
        g.count++;
        g.examples.offer(position, change);
    }

    /** Whether a violation at this position would be kept, and so is worth shrinking. */
    boolean wantsViolation(String pack, String invariant, long position) {
        Firsts<ReplayReport.Violation> kept = violations.get(pack + "\u0000" + invariant);
        return kept == null || kept.wants(position);
    }

    /** One record decided a second time, by the invariants that do ({@link io.signalman.engine.Invariant#decidesAgain}). */
    void determinismChecked() {
        determinismChecked++;
    }

    /** Which records this replay checks determinism on. */
    void determinism(Determinism d) {
        determinism = d;
    }

    void violation(long position, ReplayReport.Violation v) {
        violationCount++;
        violations.computeIfAbsent(v.pack() + "\u0000" + v.invariant(), k -> new Firsts<>(ReplayReport.VIOLATIONS)).offer(position, v);
    }

    void problem(long position, ReplayReport.Problem p) {
        problemCount++;
        if (p.fatal()) {
            fatalProblems++;
        }
        problems.offer(position, p);
    }

    /** The set of a pack's rules that fired, which the caller adds to (one set per pack, kept to avoid a lookup per firing). */
    Set<String> fired(String pack) {
        return fired.computeIfAbsent(pack, k -> new HashSet<>());
    }

    /** Says what the replay was: the candidate's revision, what it was compared with, which records it selected. */
    void describe(String candidateRevision, String compared, String selected) {
        candidate = candidateRevision;
        comparedWith = compared;
        selection = selected;
    }

    void covers(int fileIndex) {
        files.set(fileIndex);
    }

    /** Adds another part of the same replay (another thread's, another member's) to this one: every count, every example. */
    public void merge(ReplayTally o) {
        read += o.read;
        records += o.records;
        unchanged += o.unchanged;
        changed += o.changed;
        skippedTime += o.skippedTime;
        skippedPack += o.skippedPack;
        skippedSample += o.skippedSample;
        skippedArm += o.skippedArm;
        violationCount += o.violationCount;
        determinismChecked += o.determinismChecked;
        problemCount += o.problemCount;
        fatalProblems += o.fatalProblems;
        o.readByArgument.forEach((k, v) -> readByArgument.merge(k, v, Long::sum));
        firstChanges.addAll(o.firstChanges);
        o.groups.forEach((k, g) -> {
            Group mine = groups.computeIfAbsent(k, x -> new Group(g.from, g.to));
            mine.count += g.count;
            mine.examples.addAll(g.examples);
        });
        o.violations.forEach((k, v) -> violations.computeIfAbsent(k, x -> new Firsts<>(ReplayReport.VIOLATIONS)).addAll(v));
        o.fired.forEach((k, v) -> fired.computeIfAbsent(k, x -> new HashSet<>()).addAll(v));
        problems.addAll(o.problems);
        members.addAll(o.members);
        files.or(o.files);
        filesListed = Math.max(filesListed, o.filesListed);
        candidate = candidate == null ? o.candidate : candidate;
        comparedWith = comparedWith == null ? o.comparedWith : comparedWith;
        selection = o.selection;
        // An empty tally (a cluster job's accumulator before any share is in) does not know the
        // mode: whichever part does says it, since every part of one replay runs the same one.
        determinism = determinism == null ? o.determinism : determinism;
        if (o.finished) {
            mergeNeverFired(o);
        }
    }

    /** A rule no part fired is one that every part lists as never fired. */
    private void mergeNeverFired(ReplayTally o) {
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

    /** Marks this tally as one cluster member's share (before the shares are merged). */
    public void sharedBy(String member) {
        members.add(new ReplayReport.Member(member, records, elapsedSeconds));
    }

    /** The wall-clock time of the whole replay. */
    public void elapsedSeconds(double seconds) {
        elapsedSeconds = seconds;
    }

    /** Whether every file of the archive was replayed by some part (a cluster job checks it before it reports). */
    public boolean complete() {
        return files.cardinality() == filesListed && files.nextSetBit(filesListed) < 0;
    }

    /** Records that this tally's files are a share of an archive of {@code total} files. */
    public void shareOf(int total) {
        filesListed = total;
    }

    /** The finished report: what was counted, as it stands now, for every reader. */
    public ReplayReport report() {
        List<ReplayReport.Group> gs = groups.values().stream().sorted(Comparator.comparingLong(g -> g.examples.first()))
                .map(g -> new ReplayReport.Group(g.from, g.to, g.count, g.examples.values())).toList();
        TreeMap<Long, List<ReplayReport.Violation>> all = new TreeMap<>();
        violations.values().forEach(f -> f.entries().forEach((k, v) -> all.computeIfAbsent(k, x -> new ArrayList<>()).add(v)));
        Map<String, List<String>> never = new LinkedHashMap<>();
        neverFired.forEach((pack, rules) -> never.put(pack, List.copyOf(rules)));
        return new ReplayReport(new ReplayReport.Counts(read, records, unchanged, changed, skippedTime, skippedPack, skippedSample,
                skippedArm, violationCount, problemCount, fatalProblems, determinismChecked), candidate, comparedWith, selection,
                determinism == null ? Determinism.SAMPLE : determinism, elapsedSeconds,
                readByArgument, firstChanges.values(), gs, all.values().stream().flatMap(List::stream).toList(), never,
                problems.values(), members);
    }
}
