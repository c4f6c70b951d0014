package io.signalman.trials;

import io.signalman.engine.RuleBundle;

/**
 * A trial running on this node: its record (a newer one replaces it when the trial is changed,
 * here or on another node), the candidate compiled here from the trial's files, and this node's
 * figures. Read on every decision, so {@code trial} is volatile and the rest final.
 */
final class Running {

    volatile Trial trial;
    final RuleBundle candidate;
    final Tally tally;
    /** The node this runs on, as its figures are published under. */
    final String node;
    /** Set once, when the trial stops running here and its last figures are published. */
    final java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();

    Running(Trial trial, RuleBundle candidate, Tally tally, String node) {
        this.trial = trial;
        this.candidate = candidate;
        this.tally = tally;
        this.node = node;
    }

    String id() {
        return trial.id();
    }
}
