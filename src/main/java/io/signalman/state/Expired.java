package io.signalman.state;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.Refused;
import io.signalman.json.Json;
import java.time.Instant;

/**
 * A request named an entry that retention removed: refused 410 {@code expired} with its id and
 * when, for as long as the entry's tombstone is kept, so that expiry is never mistaken for a typo.
 */
public final class Expired {

    private Expired() {
    }

    /** The refusal for entry {@code id} of {@code store} (an FSM instance, a conversation), removed at {@code at}. */
    public static Refused of(String store, String id, Instant at) {
        ObjectNode details = Json.object();
        details.put("id", id);
        details.put("expired_at", at.toString());
        return new Refused(Refused.Kind.GONE, "expired", store + " \"" + id + "\" expired at " + at + " (retention removed it)",
                details);
    }
}
