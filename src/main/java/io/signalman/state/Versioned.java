package io.signalman.state;

import java.util.Objects;

/**
 * A stored value with the version it was stored at. Compare-and-set is on the version, not on the
 * value, so a state that leaves and comes back (idle, processing, idle) is still a change.
 */
public record Versioned<V>(V value, long version) {

    public Versioned {
        Objects.requireNonNull(value, "value");
    }
}
