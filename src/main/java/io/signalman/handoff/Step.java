package io.signalman.handoff;

import io.signalman.engine.Collector;
import io.signalman.rulelang.RuleVocabulary;

/**
 * The handoff pack's {@code decide} global: what the rules say happens after a turn. Exactly one
 * deciding rule calls it once ({@code decide.route($said, "student")}); the router then applies
 * the crew, the conversation's state and {@code max_handoffs} (see {@link Handoffs}).
 *
 * <p>Mutable and reused by one session (see {@link Collector}); {@link #read()} copies it.
 */
@RuleVocabulary
public final class Step implements Collector {

    /** What a rule decided, before the router applies state and limits. */
    public enum Kind { RERUN, TERMINATE, ROUTE, PAUSE, END, DEFAULT_HANDOFF }

    /** An immutable copy of one decision of the rules; {@code kind} is null when no rule decided. */
    public record Ruling(Kind kind, Said said, String target) {
    }

    private Kind kind;
    private Said said;
    private String target;

    @Override
    public void reset() {
        kind = null;
        said = null;
        target = null;
    }

    /** The agent called tools: it runs again with their results. */
    public void rerun() {
        kind = Kind.RERUN;
    }

    /** A termination signal: the conversation ends here. */
    public void terminate(Said signal) {
        kind = Kind.TERMINATE;
        said = signal;
    }

    /** A routing signal: hand the conversation to an agent or a parallel group of the crew. */
    public void route(Said signal, String agentOrGroup) {
        kind = Kind.ROUTE;
        said = signal;
        target = agentOrGroup;
    }

    /** The agent waits for a signal from outside (the user): the conversation pauses. */
    public void pause() {
        kind = Kind.PAUSE;
    }

    /** A terminal agent finished: the conversation ends. */
    public void end() {
        kind = Kind.END;
    }

    /** No signal: the crew's default handoff (handoff_targets, else the first other agent in crew order). */
    public void defaultHandoff() {
        kind = Kind.DEFAULT_HANDOFF;
    }

    Ruling read() {
        return new Ruling(kind, said, target);
    }
}
