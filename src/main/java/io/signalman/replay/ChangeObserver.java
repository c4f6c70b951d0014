package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.decisionlog.DecisionRecord;
import java.util.List;
import java.util.Map;

/**
 * Told of every decision a replay finds changed, with what the report does not keep of each: the
 * rules that fired before and after. The workbench words an impact with it ("12 messages move from
 * the heavy to the light model", by the rules whose contribution changed), over every changed
 * decision rather than the few examples a report keeps. Called on the replaying threads, in no
 * particular order: an observer is thread-safe, bounds its own memory, and orders what it keeps by
 * {@code position} (archive order) so that its result is the same whatever the thread count.
 */
public interface ChangeObserver {

    ChangeObserver NONE = change -> { };

    /**
     * One changed decision.
     *
     * @param position    the record's place in the archive (smaller is earlier)
     * @param where       {@code file:line} of the record
     * @param diff        each differing field as {old, new}, the deciding rule as {@code rule}
     * @param firedBefore the rules that fired in the decision compared with, in firing order
     * @param firedAfter  the rules that fired in the candidate's decision, in firing order
     */
    record Change(long position, String where, DecisionRecord record, Map<String, JsonNode[]> diff, List<String> firedBefore,
                  List<String> firedAfter) {
    }

    void changed(Change change);
}
