package io.signalman.decisions;

import io.signalman.datadir.Receipts;
import io.signalman.decisionlog.DecisionLog;
import java.util.function.Consumer;

/**
 * A decision's answer whose record is queued for the decision log: the answer may leave only
 * once the record is as durable as an acknowledgement promises. Either the deciding thread waits
 * for that ({@link #await}), or the transport asks to be told ({@link #whenDurable}) and sends
 * the answer then, holding no thread while the record is written.
 */
public final class Queued {

    private final byte[] body;
    private final DecisionLog log;
    private final DecisionLog.Appended record;
    private final Runnable settled;

    Queued(byte[] body, DecisionLog log, DecisionLog.Appended record, Runnable settled) {
        this.body = body;
        this.log = log;
        this.record = record;
        this.settled = settled;
    }

    /** The answer's bytes: not to be sent before the record is durable. */
    public byte[] body() {
        return body;
    }

    /**
     * Waits on this (worker) thread until the record is durable, names it in the request's
     * receipts (an idempotency answer keeps where its record ends), counts the decision, and
     * returns the answer.
     *
     * @throws io.signalman.datadir.StorageUnavailable when the disk refused the record: nothing is logged
     */
    public byte[] await() {
        log.awaitDurable(record);
        Receipts.log(record.file(), record.end());
        settled.run();
        return body;
    }

    /**
     * Tells {@code then} once the record is durable (null) or will never be (why), on the decision
     * log's writer thread: {@code then} must hand over and return at once. The one told calls
     * {@link #settled} before it sends the answer.
     */
    public void whenDurable(Consumer<RuntimeException> then) {
        log.whenDurable(record, then);
    }

    /** Once the record is durable, where the answer is sent: counts the decision and shows it to the live tail. */
    public void settled() {
        settled.run();
    }
}
