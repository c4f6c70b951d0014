package io.signalman.state;

/**
 * A create refused because a store holds {@code --state-max-entries} already: a clear
 * 507 {@code state_full} for the client, instead of a server that runs out of memory.
 */
public final class StateFull extends RuntimeException {

    public StateFull(String store, int max) {
        super("the " + store + " store holds its maximum of " + max + " entries (--state-max-entries); finished entries"
                + " are removed after --state-retention, idle ones after --state-idle-retention", null, false, false);
    }
}
