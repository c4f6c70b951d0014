package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.engine.Deadline;
import io.signalman.engine.DeadlineExceededException;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The trial's part in every decision ({@link Arms}). With no trial running it costs one volatile
 * read. During a trial the live rules always decide inline: they are the control, and what a
 * failing candidate falls back to. In a canary, a request whose key falls in the candidate's
 * bucket is then decided by the candidate too, within its share of the request's deadline, and
 * answered with it. Everything else (the shadow's candidate decision, the comparison, the
 * invariants, the trial log) waits for the commit and runs on the trial's own workers behind a
 * bounded queue: when the queue is full the work is dropped and counted, so a trial never slows
 * live traffic by more than its inline decisions.
 */
final class TrialArms implements Arms, AutoCloseable {

    /** A decision not committed this long after it was made (a lost compare-and-set, a refused write) is forgotten. */
    private static final long FORGET_NANOS = TimeUnit.SECONDS.toNanos(30);

    private volatile Running running;
    private final ConcurrentHashMap<String, Comparison<?, ?>> pending = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor workers;
    private final TrialLog log;
    private final long budgetNanos;
    private final BiConsumer<String, String> broke;

    TrialArms(TrialOptions options, TrialLog log, BiConsumer<String, String> broke) {
        this.log = log;
        this.broke = broke;
        this.budgetNanos = TimeUnit.MILLISECONDS.toNanos(options.candidateBudgetMs());
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(options.threads(), options.threads(), 1, TimeUnit.MINUTES,
                new ArrayBlockingQueue<>(options.queue()), r -> {
                    Thread t = new Thread(r, "signalman-trial-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    Running running() {
        return running;
    }

    void run(Running r) {
        running = r;
    }

    /** Every request is decided by the live rules alone from now on. */
    void stop(Running r) {
        if (running == r) {
            running = null;
        }
    }

    /** Off-path work waiting for a worker. */
    int queued() {
        return workers.getQueue().size();
    }

    @Override
    public <I, D> Decision<D> decide(DecisionPack<I, D> pack, RuleBundle live, I input, boolean explain) {
        Running r = running;
        if (r == null || !r.trial.liveRevision().equals(live.revision())) {
            return pack.decide(live, input, explain);
        }
        Trial t = r.trial;
        long t0 = System.nanoTime();
        Decision<D> d;
        try {
            d = pack.decide(live, input, explain);
        } catch (RuntimeException e) {
            r.tally.live.decisions.increment();
            (e instanceof DeadlineExceededException ? r.tally.live.deadlines : r.tally.live.errors).increment();
            throw e;
        }
        long liveNanos = System.nanoTime() - t0;
        boolean inside = t.percent() >= 100 || Buckets.inside(t.id(), pack.trialKey(input, d.outcome()), t.percent());
        if (!inside && t.mode() == Trial.Mode.SHADOW) {
            return d; // not in the shadow's sample: the trial takes no part in it
        }
        if (t.mode() == Trial.Mode.SHADOW || !inside) {
            pending.put(d.decisionId(), new Comparison<>(r, pack, input, d, liveNanos, null, 0, null, budgetNanos, log, broke));
            return d;
        }
        long c0 = System.nanoTime();
        String failure;
        try {
            Decision<D> c = Deadline.withinAtMost(inlineBudget(), () -> pack.decide(r.candidate, input, explain));
            pending.put(c.decisionId(), new Comparison<>(r, pack, input, d, liveNanos, c, System.nanoTime() - c0, null,
                    budgetNanos, log, broke));
            return c;
        } catch (DeadlineExceededException e) {
            // The request's own deadline may be what passed: then it is not answered at all, as without a trial.
            Deadline.check();
            failure = Comparison.DEADLINE;
        } catch (Exception e) {
            failure = e.toString();
        }
        pending.put(d.decisionId(), new Comparison<>(r, pack, input, d, liveNanos, null, 0, failure, budgetNanos, log, broke));
        return d;
    }

    /** Half of what is left of the request's deadline (the other half is for the live answer), at most the budget. */
    private long inlineBudget() {
        Long left = Deadline.remainingNanos();
        return left == null ? budgetNanos : Math.max(0, Math.min(budgetNanos, left / 2));
    }

    @Override
    public JsonNode committed(Decision<?> decision) {
        Comparison<?, ?> c = pending.isEmpty() ? null : pending.remove(decision.decisionId());
        if (c == null) {
            return liveLabel(decision);
        }
        c.committed(decision.decisionId());
        try {
            workers.execute(c);
        } catch (RejectedExecutionException e) {
            c.run.tally.dropped.increment();
        }
        return label(c.run.id(), c.arm());
    }

    @Override
    public JsonNode trialOf(Decision<?> decision) {
        Comparison<?, ?> c = pending.isEmpty() ? null : pending.get(decision.decisionId());
        return c == null ? liveLabel(decision) : label(c.run.id(), c.arm());
    }

    /** A decision the trial compares nothing for: the live arm's while the trial runs on its revision, else none. */
    private JsonNode liveLabel(Decision<?> decision) {
        Running r = running;
        return r != null && r.trial.liveRevision().equals(decision.revision()) ? label(r.id(), "live") : null;
    }

    private static JsonNode label(String trial, String arm) {
        return Json.object().put("id", trial).put("arm", arm);
    }

    /** Forgets decisions that were made and never committed. On the trial's own thread. */
    void sweep() {
        long now = System.nanoTime();
        pending.values().removeIf(c -> now - c.madeNanos > FORGET_NANOS);
    }

    @Override
    public void close() {
        workers.shutdown();
        try {
            workers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
