package io.signalman.trials;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * One node's figures for one trial, counted as they happen (by the request threads and the
 * trial's own workers, without a lock), and read as a snapshot ({@link #snapshot}) that
 * {@link Figures} adds up with the other nodes' and renders. Bounded whatever the traffic:
 * at most {@link #GROUPS} divergence groups with {@link #EXAMPLES} examples each (divergences
 * past them are counted, not kept), and {@link #VIOLATIONS} invariants with one example each.
 */
final class Tally {

    static final int GROUPS = 50;
    static final int EXAMPLES = 3;
    static final int VIOLATIONS = 20;

    /** One arm's decisions: made (inline or off the path), answered to clients, failed, and how long each took. */
    static final class Arm {
        final LongAdder decisions = new LongAdder();
        final LongAdder answered = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LongAdder deadlines = new LongAdder();
        final Latency latency = new Latency();

        void decided(long nanos) {
            decisions.increment();
            latency.record(nanos);
        }

        ObjectNode toJson() {
            ObjectNode n = Json.object();
            n.put("decisions", decisions.sum());
            n.put("answered", answered.sum());
            n.put("errors", errors.sum());
            n.put("deadline_exceeded", deadlines.sum());
            n.set("latency_us", latency.toJson());
            return n;
        }
    }

    /** A divergence group: decided by one live rule, by another (or the same) candidate rule. */
    private static final class Group {
        final String pack;
        final String liveRule;
        final String candidateRule;
        final LongAdder count = new LongAdder();
        final List<ObjectNode> examples = new java.util.ArrayList<>(EXAMPLES);

        Group(String pack, String liveRule, String candidateRule) {
            this.pack = pack;
            this.liveRule = liveRule;
            this.candidateRule = candidateRule;
        }
    }

    private static final class Violation {
        final String pack;
        final String invariant;
        final LongAdder count = new LongAdder();
        volatile ObjectNode example;

        Violation(String pack, String invariant) {
            this.pack = pack;
            this.invariant = invariant;
        }
    }

    final Arm live = new Arm();
    final Arm candidate = new Arm();
    final LongAdder comparisons = new LongAdder();
    final LongAdder diverged = new LongAdder();
    /** Off-path work dropped because the trial's queue was full (live traffic never waits for it). */
    final LongAdder dropped = new LongAdder();
    /** Canary requests the candidate failed (threw, or ran past its deadline), answered by the live rules instead. */
    final LongAdder fallbacks = new LongAdder();
    /** Trial-log lines dropped because its writer was behind. */
    final LongAdder logDropped = new LongAdder();
    private final LongAdder ungrouped = new LongAdder();
    private final ConcurrentHashMap<String, Group> groups = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Violation> violations = new ConcurrentHashMap<>();

    /** One diverging comparison; its example is built only when the group keeps one more. */
    void diverged(String pack, String liveRule, String candidateRule, Supplier<ObjectNode> example) {
        String key = pack + '\u0000' + liveRule + '\u0000' + candidateRule;
        Group g = groups.get(key);
        if (g == null) {
            if (groups.size() >= GROUPS) {
                ungrouped.increment();
                return;
            }
            g = groups.computeIfAbsent(key, k -> new Group(pack, liveRule, candidateRule));
        }
        g.count.increment();
        synchronized (g.examples) {
            if (g.examples.size() < EXAMPLES) {
                g.examples.add(example.get());
            }
        }
    }

    /**
     * One invariant violation on the candidate; the first of each invariant keeps its example
     * (with the smallest failing input, which costs a few hundred decisions: only then). True
     * for that first one.
     */
    boolean violated(String pack, String invariant, Supplier<ObjectNode> example) {
        String key = pack + '\u0000' + invariant;
        Violation v = violations.get(key);
        if (v == null) {
            if (violations.size() >= VIOLATIONS) {
                return false;
            }
            v = violations.computeIfAbsent(key, k -> new Violation(pack, invariant));
        }
        boolean first = false;
        synchronized (v) {
            if (v.example == null) {
                v.example = example.get();
                first = true;
            }
        }
        // Counted once its example is there: a snapshot never shows a violation without one.
        v.count.increment();
        return first;
    }

    /** This node's figures as they are now, in the form {@link Figures} adds up. */
    ObjectNode snapshot() {
        ObjectNode n = Json.object();
        ObjectNode arms = n.putObject("arms");
        arms.set("live", live.toJson());
        arms.set("candidate", candidate.toJson());
        n.put("comparisons", comparisons.sum());
        n.put("diverged", diverged.sum());
        n.put("dropped", dropped.sum());
        n.put("fallbacks", fallbacks.sum());
        n.put("log_dropped", logDropped.sum());
        n.put("ungrouped", ungrouped.sum());
        ArrayNode gs = n.putArray("divergences");
        for (Group g : groups.values()) {
            ObjectNode o = gs.addObject().put("pack", g.pack).put("live_rule", g.liveRule).put("candidate_rule", g.candidateRule)
                    .put("count", g.count.sum());
            ArrayNode ex = o.putArray("examples");
            synchronized (g.examples) {
                g.examples.forEach(ex::add);
            }
        }
        ArrayNode vs = n.putArray("invariant_violations");
        for (Violation v : violations.values()) {
            if (v.count.sum() == 0) {
                continue; // its first example is still being shrunk
            }
            ObjectNode o = vs.addObject().put("pack", v.pack).put("invariant", v.invariant).put("count", v.count.sum());
            o.set("example", v.example);
        }
        return n;
    }
}
