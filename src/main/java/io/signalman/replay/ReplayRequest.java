package io.signalman.replay;

import io.signalman.engine.RuleBundle;
import java.util.Objects;

/**
 * One replay, as the command line, the reload gate, the workbench and a cluster member ask for
 * it: candidate rules, what to compare with, which archive and which of its records, on how many
 * threads, and who to tell about progress. Build one with {@link #of} and the {@code with}
 * methods; run it with {@link Replayer#run}.
 *
 * @param baseline rules to compare with, or null to compare with the recorded decisions
 * @param threads replaying threads (at least 1)
 */
public record ReplayRequest(RuleBundle candidate, RuleBundle baseline, Archive archive, Selection selection, int threads,
                            ReplayListener listener, ChangeObserver observer) {

    public ReplayRequest {
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(archive, "archive");
        selection = selection == null ? Selection.ALL : selection;
        listener = listener == null ? ReplayListener.NONE : listener;
        observer = observer == null ? ChangeObserver.NONE : observer;
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, not " + threads);
        }
    }

    /** A replay nobody watches change by change (the command line's, the gate's, a cluster member's). */
    public ReplayRequest(RuleBundle candidate, RuleBundle baseline, Archive archive, Selection selection, int threads,
                         ReplayListener listener) {
        this(candidate, baseline, archive, selection, threads, listener, ChangeObserver.NONE);
    }

    /** Every record of the archive against the recorded decisions, on every core, quietly. */
    public static ReplayRequest of(RuleBundle candidate, Archive archive) {
        return new ReplayRequest(candidate, null, archive, Selection.ALL, Runtime.getRuntime().availableProcessors(),
                ReplayListener.NONE);
    }

    public ReplayRequest withBaseline(RuleBundle rules) {
        return new ReplayRequest(candidate, rules, archive, selection, threads, listener, observer);
    }

    public ReplayRequest withSelection(Selection s) {
        return new ReplayRequest(candidate, baseline, archive, s, threads, listener, observer);
    }

    public ReplayRequest withThreads(int n) {
        return new ReplayRequest(candidate, baseline, archive, selection, n, listener, observer);
    }

    public ReplayRequest withListener(ReplayListener l) {
        return new ReplayRequest(candidate, baseline, archive, selection, threads, l, observer);
    }

    public ReplayRequest withArchive(Archive a) {
        return new ReplayRequest(candidate, baseline, a, selection, threads, listener, observer);
    }

    public ReplayRequest withObserver(ChangeObserver o) {
        return new ReplayRequest(candidate, baseline, archive, selection, threads, listener, o);
    }
}
