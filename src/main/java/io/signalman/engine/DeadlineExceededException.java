package io.signalman.engine;

/** An evaluation ran past the deadline of its request and was stopped (or never started). */
public final class DeadlineExceededException extends RuntimeException {

    public DeadlineExceededException() {
        super("the request ran past its deadline; its rules were stopped and nothing was changed", null, false, false);
    }
}
