package io.signalman.state;

import java.time.Duration;
import java.util.Optional;

/**
 * Idempotency answers shared by every node of a cluster, so that a client retrying
 * a request on another node (its first node died, or a load balancer moved it) is answered, not
 * served twice. A node first claims a key; the claim expires by itself after {@code reserve}
 * (a node that dies mid-request must not block the key for the whole window); the answer then
 * replaces the claim for {@code window}. Blocking: call from worker threads.
 */
public interface SharedAnswers {

    /** What a node holds for a key: the body digest it came with, and its answer once there is one. */
    record Held(byte[] digest, int status, byte[] body) {
        public boolean running() {
            return body == null;
        }
    }

    /** Claims {@code id} for this request, or returns what another request already holds for it. */
    Optional<Held> claim(String id, byte[] digest, Duration reserve);

    /** Stores the answer of a claimed key for {@code window}. */
    void complete(String id, byte[] digest, int status, byte[] body, Duration window);

    /**
     * Stores the answer of a claimed key, with what its request made durable
     * ({@link io.signalman.datadir.Receipts}): a store that outlives a crash keeps the answer only
     * while those are there too. A store that cannot outlive one (a cluster's) ignores them.
     */
    default void complete(String id, byte[] digest, int status, byte[] body, Duration window,
                          java.util.List<com.fasterxml.jackson.databind.node.ObjectNode> receipts) {
        complete(id, digest, status, body, window);
    }

    /** Gives up a claim (the request failed with a 5xx, so a retry may run again). */
    void release(String id);
}
