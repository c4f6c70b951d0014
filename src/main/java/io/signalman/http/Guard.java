package io.signalman.http;

import io.signalman.engine.Deadline;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The life of one admitted request, the same for HTTP and the event bus: admitted or
 * refused at once (503 {@code overloaded}), given a deadline (503 {@code deadline_exceeded} when
 * it passes, answered by a timer on the event loop even if the worker is stuck), and run once
 * per idempotency key. One per server: the in-flight bound, the keys and the threads are the
 * server's.
 *
 * <p>Two pools of {@link Workers}: {@code signalman-decide} for what clients send, and a small
 * {@code signalman-operator} for what operators ask ({@code /metrics}, {@code /v1/rules}, admin
 * endpoints), so that an operator never waits behind rules, however many hold the decision
 * threads.
 */
public final class Guard implements AutoCloseable {

    /** Threads for operators' requests: a scrape and an admin call at once, none of them evaluates rules. */
    static final int OPERATOR_THREADS = 2;

    /** How a transport answers: with a reply, or with an error. Called on the event loop, once. */
    interface Answer {
        void reply(Api.Reply reply);

        void fail(ApiError error);
    }

    /** Names the idempotency key of a request; runs on the worker (it may read the body). */
    @FunctionalInterface
    interface KeySource {
        Idempotency.Key key() throws Exception;
    }

    private final InFlight inFlight;
    private final Idempotency idempotency;
    private final long deadlineMs;
    private final Workers decide;
    private final Workers operators;

    /**
     * With {@code shared} (a cluster's, or null), idempotency keys are answered on every node;
     * {@code workers} threads decide (also the floor of the adaptive admission limit, see
     * {@link InFlight}), and as many again may be abandoned to rules that do not stop.
     * Starts the threads: call it from a plain thread, not an event loop.
     */
    public Guard(RequestLimits limits, io.signalman.state.SharedAnswers shared, int workers) {
        this.inFlight = new InFlight(limits.maxInFlight(), workers);
        this.deadlineMs = limits.deadlineMs();
        this.idempotency = new Idempotency(limits.idempotencyWindow(), limits.idempotencyKeys(), shared,
                java.time.Duration.ofMillis(deadlineMs).plus(Idempotency.CLAIM_MARGIN));
        this.decide = new Workers("signalman-decide", workers, workers, Deadline.STUCK_AFTER_MS);
        this.operators = new Workers("signalman-operator", OPERATOR_THREADS, OPERATOR_THREADS, Deadline.STUCK_AFTER_MS);
    }

    /**
     * A client's request. Runs on the event loop. The slot is released when the work ends (for a
     * decision whose record is queued, once the record is written and the answer sent), not
     * when the deadline answers (a worker still busy with a stopped evaluation is still load), or
     * when its thread is abandoned (a new thread has taken over that load).
     */
    void run(Vertx vertx, KeySource keys, Callable<Api.Reply> work, Answer answer) {
        // Refused like a request past the bound: queued now, it would only wait out its deadline.
        if (decide.stalled()) {
            answer.fail(ApiError.OVERLOADED);
            return;
        }
        InFlight.Slot slot = inFlight.tryAcquire();
        if (slot == null) {
            answer.fail(ApiError.OVERLOADED);
            return;
        }
        start(vertx, decide, slot, keys, work, answer);
    }

    /**
     * An admin request (an FSM restore): the same deadline and idempotency, but on the operators'
     * threads and outside the clients' admission bound, so it is neither refused nor queued
     * because clients keep the decision threads busy. Runs on the event loop.
     */
    void runAdmin(Vertx vertx, KeySource keys, Callable<Api.Reply> work, Answer answer) {
        start(vertx, operators, InFlight.UNCOUNTED, keys, work, answer);
    }

    /**
     * An operator's read ({@code /metrics}, {@code /v1/rules}) on the operators' threads; its
     * future completes on the calling event loop. Nothing answers it at a deadline: it evaluates
     * no rules, and the deadline only marks its thread stuck if it somehow does not return.
     */
    <T> Future<T> operate(Vertx vertx, Callable<T> work) {
        return submit(vertx.getOrCreateContext(), operators, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs), work, () -> { });
    }

    private void start(Vertx vertx, Workers pool, InFlight.Slot slot, KeySource keys, Callable<Api.Reply> work,
                       Answer answer) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
        boolean[] answered = new boolean[1]; // only touched on this event loop
        long timer = vertx.setTimer(deadlineMs, t -> {
            if (!answered[0]) {
                answered[0] = true;
                answer.fail(ApiError.DEADLINE_UNANSWERED);
            }
        });
        Context context = vertx.getOrCreateContext();
        Handler<AsyncResult<Api.Reply>> finish = done -> {
            vertx.cancelTimer(timer);
            if (answered[0]) {
                slot.dropped();
                return;
            }
            ApiError failed = done.succeeded() ? null : ApiError.from(done.cause());
            if (failed != null && failed.status() >= 500) {
                slot.ignored();
            } else {
                slot.done();
            }
            answered[0] = true;
            if (failed == null) {
                answer.reply(done.result());
            } else {
                answer.fail(failed);
            }
        };
        submit(context, pool, deadline, () -> Deadline.within(deadline, () -> idempotency.once(keys.key(), work)), slot::dropped)
                .onComplete(done -> {
                    Api.Reply reply = done.succeeded() ? done.result() : null;
                    if (reply == null || reply.queued() == null) {
                        finish.handle(done);
                        return;
                    }
                    // A decision whose record is queued: answered once the record is durable, by the log's
                    // writer handing over to this event loop; the slot is held (it is still load) until then.
                    reply.queued().whenDurable(refused -> context.runOnContext(v -> {
                        if (refused != null) {
                            finish.handle(Future.failedFuture(refused));
                            return;
                        }
                        reply.queued().settled();
                        finish.handle(Future.succeededFuture(reply));
                    }));
                });
    }

    /** Runs {@code work} on {@code pool}; the future completes on the calling context (an event loop). */
    private static <T> Future<T> submit(Context context, Workers pool, long deadline, Callable<T> work, Runnable onAbandoned) {
        Promise<T> promise = Promise.promise();
        try {
            pool.execute(deadline, () -> {
                try {
                    T result = work.call();
                    context.runOnContext(v -> promise.complete(result));
                } catch (Throwable t) {
                    context.runOnContext(v -> promise.fail(t));
                }
            }, onAbandoned);
        } catch (RejectedExecutionException e) {
            promise.fail(e);
        }
        return promise.future();
    }

    public int inFlight() {
        return inFlight.current();
    }

    /** The adaptive admission limit now. */
    public int admissionLimit() {
        return inFlight.limit();
    }

    public Idempotency idempotency() {
        return idempotency;
    }

    /** The threads that decide: their stuck and abandoned counts are what {@code /health} reports. */
    public Workers decisionWorkers() {
        return decide;
    }

    /** Stops both pools taking work; threads end once what is queued is done. */
    @Override
    public void close() {
        decide.close();
        operators.close();
    }
}
