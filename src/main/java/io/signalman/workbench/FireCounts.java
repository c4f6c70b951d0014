package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.decisionlog.DecisionRecord;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How often each rule fired under each revision of the rules, counted as decisions are logged
 * since this server started: what a rule's timeline shows as "fired before" and "fired after" an
 * activation. NOTE: counted from a tap rather than read back from the decision log, because
 * reading the log per request would cost a scan of every kept file; the price is that counts
 * start at zero on each start, which the timeline says. Bounded by revisions times rules, both few.
 */
final class FireCounts {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> decisions = new ConcurrentHashMap<>();

    /** A tap on the deciding thread: a few map updates per decision. */
    void record(DecisionRecord r) {
        if (r.rulesRevision() == null) {
            return;
        }
        decisions.computeIfAbsent(r.rulesRevision() + "\n" + r.pack(), k -> new LongAdder()).increment();
        for (JsonNode f : r.decision().path("rules_fired")) {
            counts.computeIfAbsent(key(r.rulesRevision(), r.pack(), f.path("rule").asText()), k -> new LongAdder()).increment();
        }
    }

    /** Times {@code rule} of {@code pack} fired under {@code revision} since start. */
    long fired(String revision, String pack, String rule) {
        LongAdder a = counts.get(key(revision, pack, rule));
        return a == null ? 0 : a.sum();
    }

    /** Decisions {@code pack} made under {@code revision} since start. */
    long decisions(String revision, String pack) {
        LongAdder a = decisions.get(revision + "\n" + pack);
        return a == null ? 0 : a.sum();
    }

    private static String key(String revision, String pack, String rule) {
        return revision + "\n" + pack + "\n" + rule;
    }
}
