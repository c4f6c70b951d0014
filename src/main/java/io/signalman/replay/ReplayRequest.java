package io.signalman.replay;

import io.signalman.engine.RuleBundle;
import java.util.Objects;

/**
 * One replay, as the command line, the reload gate, the workbench and a cluster member ask for
 * it: candidate rules, what to compare with, which archive and which of its records, on how many
 * threads, who to tell about progress, and which records have their determinism checked. Build
 * one with {@link #of} and the {@code with} methods; run it with {@link Replayer#run}.
 *
 * @param baseline rules to compare with, or null to compare with the recorded decisions
 * @param threads replaying threads (at least 1)
 * @param determinism the records decided a second time to check determinism; null for
 *                    {@link Determinism#SAMPLE}, a replay's default (a caller whose replay
 *                    decides whether rules or a history are accepted asks for {@link Determinism#ALL})
 */
public record ReplayRequest(RuleBundle candidate, RuleBundle baseline, Archive archive, Selection selection, int threads,
                            ReplayListener listener, ChangeObserver observer, Determinism determinism) {

    public ReplayRequest {
        Objects.requireNonNull(candidate, "candidate");
        Objects.requireNonNull(archive, "archive");
        selection = selection == null ? Selection.ALL : selection;
        listener = listener == null ? ReplayListener.NONE : listener;
        observer = observer == null ? ChangeObserver.NONE : observer;
        determinism = determinism == null ? Determinism.SAMPLE : determinism;
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, not " + threads);
        }
    }

    /** A replay nobody watches change by change (the command line's, a cluster member's). */
    public ReplayRequest(RuleBundle candidate, RuleBundle baseline, Archive archive, Selection selection, int threads,
                         ReplayListener listener, Determinism determinism) {
        this(candidate, baseline, archive, selection, threads, listener, ChangeObserver.NONE, determinism);
    }

    /** Every record of the archive against the recorded decisions, on every core, quietly, determinism sampled. */
    public static ReplayRequest of(RuleBundle candidate, Archive archive) {
        return new ReplayRequest(candidate, null, archive, Selection.ALL, Runtime.getRuntime().availableProcessors(),
                ReplayListener.NONE, Determinism.SAMPLE);
    }

    public ReplayRequest withBaseline(RuleBundle rules) {
        return new ReplayRequest(candidate, rules, archive, selection, threads, listener, observer, determinism);
    }

    public ReplayRequest withSelection(Selection s) {
        return new ReplayRequest(candidate, baseline, archive, s, threads, listener, observer, determinism);
    }

    public ReplayRequest withThreads(int n) {
        return new ReplayRequest(candidate, baseline, archive, selection, n, listener, observer, determinism);
    }

    public ReplayRequest withListener(ReplayListener l) {
        return new ReplayRequest(candidate, baseline, archive, selection, threads, l, observer, determinism);
    }

    public ReplayRequest withObserver(ChangeObserver o) {
        return new ReplayRequest(candidate, baseline, archive, selection, threads, listener, o, determinism);
    }

    public ReplayRequest withDeterminism(Determinism d) {
        return new ReplayRequest(candidate, baseline, archive, selection, threads, listener, observer, d);
    }
}
