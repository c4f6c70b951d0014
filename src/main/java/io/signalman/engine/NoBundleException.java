package io.signalman.engine;

/** No rule bundle has loaded yet: the server is live but not ready. */
public final class NoBundleException extends IllegalStateException {

    public NoBundleException() {
        super("no rule bundle is loaded yet");
    }
}
