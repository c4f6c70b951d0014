package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.Deadline;
import io.signalman.engine.DeadlineExceededException;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Invariant;
import io.signalman.json.Json;
import io.signalman.replay.Compare;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * One request of a trial, from its decision to its line in the trial log. Made where the request
 * is decided (with the live decision, and in a canary's candidate bucket the candidate's too),
 * counted when the answer is committed ({@link #committed}), and finished on the trial's own
 * workers ({@link #run}): the candidate decides there when it has not yet (shadow, and the live
 * bucket of a canary), from the same input, stateful packs from the same state before the live
 * change, which the candidate's decision never applies; the two decisions are compared as replay
 * compares them; the candidate's decision is held to the pack's invariants.
 */
final class Comparison<I, D> implements Runnable {

    final Running run;
    final DecisionPack<I, D> pack;
    final I input;
    final Decision<D> live;
    final long liveNanos;
    /** The candidate's decision when it was made inline (a canary's candidate bucket), else null until {@link #run}. */
    private Decision<D> candidate;
    private long candidateNanos;
    /** Why the candidate made no decision inline ({@code deadline_exceeded} or the error), or null. */
    private final String candidateFailure;
    private final boolean candidateAnswered;
    private final long budgetNanos;
    private final TrialLog log;
    /** Told of an invariant the candidate broke (the trial may stop on it): trial id, reason. */
    private final BiConsumer<String, String> broke;
    final long madeNanos = System.nanoTime();
    private String decisionId;
    private String at;

    Comparison(Running run, DecisionPack<I, D> pack, I input, Decision<D> live, long liveNanos, Decision<D> candidate,
               long candidateNanos, String candidateFailure, long budgetNanos, TrialLog log, BiConsumer<String, String> broke) {
        this.run = run;
        this.pack = pack;
        this.input = input;
        this.live = live;
        this.liveNanos = liveNanos;
        this.candidate = candidate;
        this.candidateNanos = candidateNanos;
        this.candidateFailure = candidateFailure;
        this.candidateAnswered = candidate != null;
        this.budgetNanos = budgetNanos;
        this.log = log;
        this.broke = broke;
    }

    /** The answer left with {@code decisionId}: counted now, on the request's thread (a few adds). */
    void committed(String decisionId) {
        this.decisionId = decisionId;
        this.at = Instant.now().toString();
        Tally t = run.tally;
        t.live.decided(liveNanos);
        (candidateAnswered ? t.candidate : t.live).answered.increment();
        if (candidateAnswered) {
            t.candidate.decided(candidateNanos);
        } else if (candidateFailure != null) {
            failed(candidateFailure);
            t.fallbacks.increment();
        }
    }

    String arm() {
        return candidateAnswered ? "candidate" : "live";
    }

    private void failed(String failure) {
        Tally t = run.tally;
        t.candidate.decisions.increment();
        (DEADLINE.equals(failure) ? t.candidate.deadlines : t.candidate.errors).increment();
    }

    static final String DEADLINE = "deadline_exceeded";

    /** On a trial worker: the candidate decides if it has not, then compare, check, log. */
    @Override
    public void run() {
        if (candidateFailure != null) {
            line(null, candidateFailure);
            return;
        }
        if (candidate == null) {
            long t0 = System.nanoTime();
            try {
                candidate = Deadline.within(t0 + budgetNanos, () -> pack.decide(run.candidate, input, false));
            } catch (DeadlineExceededException e) {
                failed(DEADLINE);
                line(null, DEADLINE);
                return;
            } catch (Exception e) {
                failed(e.toString());
                line(null, e.toString());
                return;
            }
            candidateNanos = System.nanoTime() - t0;
            run.tally.candidate.decided(candidateNanos);
        }
        ObjectNode liveOut = pack.outcomeJson(live.outcome());
        ObjectNode candidateOut = pack.outcomeJson(candidate.outcome());
        Map<String, JsonNode[]> diff = Compare.diff(liveOut, live, candidateOut, candidate);
        Tally t = run.tally;
        t.comparisons.increment();
        if (diff != null) {
            t.diverged.increment();
            t.diverged(pack.name(), ruleName(live), ruleName(candidate), () -> example(liveOut, candidateOut, diff));
        }
        // Every invariant on every comparison, determinism included (replay samples it: see
        // replay.Determinism). Here a broken invariant can stop the trial (its stop limits say),
        // and in a canary the candidate answers clients: a sample would let it keep answering
        // after the decision that should have stopped it. The cost is the trial's own, on its
        // workers, off the request path.
        for (Invariant<I, D> inv : pack.invariants()) {
            Optional<String> broken;
            try {
                broken = inv.check(input, candidate, i -> pack.decide(run.candidate, i, false));
            } catch (RuntimeException e) {
                broken = Optional.of("the check failed: " + e);
            }
            if (broken.isPresent()) {
                String message = broken.get();
                t.violated(pack.name(), inv.name(), () -> violation(inv, message));
                broke.accept(run.id(), "\"" + inv.name() + "\" in pack " + pack.name() + ": " + message);
            }
        }
        line(diff == null ? null : Json.object().setAll(example(liveOut, candidateOut, diff)), null);
    }

    private ObjectNode example(ObjectNode liveOut, ObjectNode candidateOut, Map<String, JsonNode[]> diff) {
        ObjectNode n = Json.object();
        n.put("decision_id", decisionId);
        n.put("at", at);
        n.put("pack", pack.name());
        n.put("answered", arm());
        n.set("input", pack.inputJson(input));
        n.set("state_before", pack.stateBefore(input));
        n.set("live", decided(liveOut, live));
        n.set("candidate", decided(candidateOut, candidate));
        ObjectNode d = n.putObject("diff");
        diff.forEach((field, v) -> d.putObject(field).<ObjectNode>set("live", v[0]).set("candidate", v[1]));
        return n;
    }

    private ObjectNode violation(Invariant<I, D> inv, String message) {
        ObjectNode n = Json.object();
        n.put("decision_id", decisionId);
        n.put("at", at);
        n.put("message", message);
        JsonNode in = pack.inputJson(input);
        n.set("input", in);
        n.set("state_before", pack.stateBefore(input));
        n.set("candidate", decided(pack.outcomeJson(candidate.outcome()), candidate));
        n.set("smallest_input", Compare.smallestFailing(pack, run.candidate, inv, in, pack.stateBefore(input)));
        return n;
    }

    private static ObjectNode decided(ObjectNode outcome, Decision<?> d) {
        ObjectNode n = Json.object();
        n.put("rule", ruleName(d));
        n.put("rules_revision", d.revision());
        n.setAll(outcome);
        return n;
    }

    private static String ruleName(Decision<?> d) {
        return d.decidedBy() == null ? "(no rule)" : d.decidedBy().name();
    }

    /**
     * The candidate's result in the trial log: an agreement by reference (the decision log has the
     * request and the live decision under the same id), a divergence or a failure in full.
     */
    private void line(ObjectNode divergence, String failure) {
        ObjectNode n = Json.object();
        n.put("at", at);
        n.put("trial", run.id());
        n.put("decision_id", decisionId);
        n.put("pack", pack.name());
        n.put("answered", arm());
        n.put("candidate_revision", run.candidate.revision());
        if (failure != null) {
            n.put("candidate_failed", failure);
            n.set("input", pack.inputJson(input));
            n.set("state_before", pack.stateBefore(input));
        } else if (divergence == null) {
            n.put("agreed", true);
            n.put("rule", ruleName(candidate));
        } else {
            n.put("agreed", false);
            divergence.remove(java.util.List.of("decision_id", "at", "pack", "answered"));
            n.setAll(divergence);
        }
        if (!log.write(Json.bytes(n))) {
            run.tally.logDropped.increment();
        }
    }
}
