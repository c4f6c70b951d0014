package io.signalman.http;

import io.signalman.engine.Deadline;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The life of one admitted request, the same for HTTP and the event bus (SPEC 8): admitted or
 * refused at once (503 {@code overloaded}), given a deadline (503 {@code deadline_exceeded} when
 * it passes, answered by a timer on the event loop even if the worker is stuck), and run once
 * per idempotency key. One per server: the in-flight bound and the keys are the server's.
 */
final class Guard {

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

    Guard(RequestLimits limits) {
        this(limits, null, ServerConfig.defaults().workers());
    }

    /**
     * With {@code shared} (a cluster's, or null), idempotency keys are answered on every node;
     * {@code workers} is the floor of the adaptive admission limit (see {@link InFlight}).
     */
    Guard(RequestLimits limits, io.signalman.state.SharedAnswers shared, int workers) {
        this.inFlight = new InFlight(limits.maxInFlight(), workers);
        this.deadlineMs = limits.deadlineMs();
        this.idempotency = new Idempotency(limits.idempotencyWindow(), limits.idempotencyKeys(), shared,
                java.time.Duration.ofMillis(deadlineMs).plus(Idempotency.CLAIM_MARGIN));
    }

    /**
     * Runs on the event loop. The slot is released when the work ends, not when the deadline
     * answers: a worker still busy with a stopped evaluation is still load.
     */
    void run(Vertx vertx, WorkerExecutor workers, KeySource keys, Callable<Api.Reply> work, Answer answer) {
        InFlight.Slot slot = inFlight.tryAcquire();
        if (slot == null) {
            answer.fail(ApiError.OVERLOADED);
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
        boolean[] answered = new boolean[1]; // only touched on this event loop
        long timer = vertx.setTimer(deadlineMs, t -> {
            if (!answered[0]) {
                answered[0] = true;
                answer.fail(ApiError.DEADLINE_UNANSWERED);
            }
        });
        workers.<Api.Reply>executeBlocking(() -> Deadline.within(deadline, () -> idempotency.once(keys.key(), work)), false)
                .onComplete(done -> {
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
                });
    }

    int inFlight() {
        return inFlight.current();
    }

    /** The adaptive admission limit now. */
    int admissionLimit() {
        return inFlight.limit();
    }

    Idempotency idempotency() {
        return idempotency;
    }
}
