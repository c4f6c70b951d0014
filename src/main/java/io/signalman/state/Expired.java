package io.signalman.state;

import java.time.Instant;

/**
 * A request named an entry that retention removed: answered 410 {@code expired} with
 * when, for as long as the entry's tombstone is kept, so that expiry is never mistaken for a typo.
 */
public final class Expired extends RuntimeException {

    private final String id;
    private final Instant at;

    public Expired(String store, String id, Instant at) {
        super(store + " \"" + id + "\" expired at " + at + " (retention removed it)", null, false, false);
        this.id = id;
        this.at = at;
    }

    public String id() {
        return id;
    }

    public Instant at() {
        return at;
    }
}
