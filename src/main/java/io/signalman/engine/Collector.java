package io.signalman.engine;

/**
 * The object a pack's rules call to decide, bound to the DRL global {@code decide}.
 *
 * <p>One instance lives with one session and is reused across evaluations (sessions are never
 * shared between threads), so it is mutable by design; the pack copies it into an immutable
 * decision before the session goes back to its pool.
 */
public interface Collector {

    /** The DRL global every pack's rules decide through. */
    String GLOBAL = "decide";

    /** Forgets the previous evaluation. */
    void reset();
}
