package io.signalman.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.datadir.Receipts;
import io.signalman.engine.Refused;
import io.signalman.json.Json;
import io.signalman.state.SharedAnswers;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Answers a request seen again with the answer it got the first time, so a client may
 * retry after a timeout or a lost connection without moving an FSM twice or counting a handoff
 * twice. A key is scoped by where it was sent (method and path, or the bus address), so the same
 * key on two endpoints are two requests.
 *
 * <ul>
 *   <li>Same key, same body: the first answer, byte for byte (same {@code decision_id}); the work
 *       does not run again, so nothing is logged or changed again.</li>
 *   <li>Same key, other body: 422 {@code idempotency_key_reused} (as Stripe does): the client has
 *       a bug, and answering either request's decision would be a lie about the other.</li>
 *   <li>Same key while the first is still running: 409 {@code idempotency_key_in_progress}
 *       with {@code Retry-After}; a retry after it finishes gets its answer.</li>
 *   <li>Answers under 500 are remembered (a 409 refusal is a decision too); a 5xx (deadline,
 *       runaway rules, our bug) is forgotten so a retry may run again.</li>
 * </ul>
 *
 * <p>Bounded twice: a key is forgotten after the window, and the oldest keys go first past
 * {@code maxKeys} or {@link #MAX_BYTES} of remembered answers. Every method runs on a worker.
 *
 * <p>In a cluster ({@link SharedAnswers}), keys are also claimed and answered cluster-wide, so a
 * retry sent to another node is answered too; this node's own map stays the fast path.
 */
public final class Idempotency {

    /** Remembered answers never hold more than this much heap, whatever the key count. */
    static final long MAX_BYTES = 64L * 1024 * 1024;
    /** Longer keys are refused: a key is an id, not a payload. */
    static final int MAX_KEY_LENGTH = 255;

    /** A request's identity: where it went, its key, and a digest of its body. */
    record Key(String scope, String key, byte[] bodyDigest) {
        String id() {
            return scope + "\n" + key;
        }
    }

    private static final class Entry {
        final byte[] digest;
        final long at;
        Api.Reply reply;

        Entry(byte[] digest, long at) {
            this.digest = digest;
            this.at = at;
        }

        long bytes() {
            return reply == null ? 0 : reply.body().length + 64L;
        }
    }

    private final long windowNanos;
    private final int maxKeys;
    // Insertion order is age order: expiry and eviction both take from the head.
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();
    private long bytes;

    /** How much longer than a request's deadline a cluster-wide claim outlives it (then a retry may run). */
    static final java.time.Duration CLAIM_MARGIN = java.time.Duration.ofSeconds(5);

    private final java.time.Duration window;
    private final SharedAnswers shared;
    private final java.time.Duration claim;

    Idempotency(java.time.Duration window, int maxKeys) {
        this(window, maxKeys, null, java.time.Duration.ZERO);
    }

    /**
     * With {@code shared}, a key this node has not seen is claimed cluster-wide before the work
     * runs, so a retry on another node gets the answer (or 409 while it runs). A claim expires
     * after {@code claim}, so a node that dies mid-request blocks its key only that long.
     */
    Idempotency(java.time.Duration window, int maxKeys, SharedAnswers shared, java.time.Duration claim) {
        this.window = window;
        this.windowNanos = window.toNanos();
        this.maxKeys = maxKeys;
        this.shared = shared;
        this.claim = claim;
    }

    /** The key of a request: a header value (or a message id) and the body it came with. */
    static Key key(String scope, String key, byte[] body) {
        if (key == null) {
            return null;
        }
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw new Refused(Refused.Kind.UNPROCESSABLE, "invalid_idempotency_key",
                    "an idempotency key is 1 to " + MAX_KEY_LENGTH + " characters");
        }
        try {
            return new Key(scope, key, MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The top-level {@code "id"} of a JSON object body when it is a string, else null (the real parse reports bad JSON). */
    static String bodyId(byte[] body) {
        return Json.topLevelString(body, "id");
    }

    /** Runs {@code work} once per key within the window; see the class comment for the rules. */
    Api.Reply once(Key key, Callable<Api.Reply> work) throws Exception {
        if (key == null || maxKeys == 0) {
            return work.call();
        }
        Entry mine = new Entry(key.bodyDigest(), System.nanoTime());
        Entry seen;
        synchronized (this) {
            expire(mine.at);
            seen = entries.putIfAbsent(key.id(), mine);
            if (seen == null) {
                evict();
            }
        }
        if (seen != null) {
            return replay(seen, key);
        }
        if (shared != null) {
            Optional<SharedAnswers.Held> other;
            try {
                other = shared.claim(key.id(), key.bodyDigest(), claim);
            } catch (RuntimeException e) {
                forget(key, mine);
                throw e;
            }
            if (other.isPresent()) {
                forget(key, mine);
                return replay(other.get(), key);
            }
        }
        Api.Reply reply;
        List<ObjectNode> receipts;
        Receipts.begin();
        try {
            // A keyed answer is kept with the receipt of its record, so this thread waits until the record is durable.
            reply = work.call().awaited();
        } catch (Exception | Error e) {
            ApiError error = ApiError.from(e);
            if (error.status() >= 500) {
                forget(key, mine);
                if (shared != null) {
                    shared.release(key.id());
                }
                throw new ApiError.Raised(error);
            }
            reply = new Api.Reply(error.status(), Json.bytes(error.toJson()));
        } finally {
            receipts = Receipts.end();
        }
        if (shared != null) {
            try {
                // After the change it answers is written (the work has returned): never ahead of it.
                shared.complete(key.id(), key.bodyDigest(), reply.status(), reply.body(), window, receipts);
            } catch (RuntimeException e) {
                // The change is made and written; only its answer could not be stored (the disk
                // filled, or the worker was interrupted as the server stops). The client is told
                // what happened (the answer), this node remembers it below, and the key is never
                // left claimed: a retry after a restart runs again.
                shared.release(key.id());
            }
        }
        remember(key, mine, reply);
        return reply;
    }

    /** What another node holds for the key: its answer, or 409 while it runs, or 422 for another body. */
    private static Api.Reply replay(SharedAnswers.Held held, Key key) {
        if (!Arrays.equals(held.digest(), key.bodyDigest())) {
            throw reused(key);
        }
        if (held.running()) {
            throw inProgress(key);
        }
        return new Api.Reply(held.status(), held.body(), true);
    }

    private static Refused reused(Key key) {
        return new Refused(Refused.Kind.UNPROCESSABLE, "idempotency_key_reused", "idempotency key \"" + key.key()
                + "\" was used with a different body; use a new key for a new request");
    }

    private static ApiError.Raised inProgress(Key key) {
        return new ApiError.Raised(ApiError.of(409, "idempotency_key_in_progress", "a request with idempotency key \""
                + key.key() + "\" is still running; retry to get its answer"));
    }

    public synchronized int size() {
        return entries.size();
    }

    private Api.Reply replay(Entry seen, Key key) {
        if (!Arrays.equals(seen.digest, key.bodyDigest())) {
            throw reused(key);
        }
        Api.Reply first;
        synchronized (this) {
            first = seen.reply;
        }
        if (first == null) {
            throw inProgress(key);
        }
        return new Api.Reply(first.status(), first.body(), true);
    }

    private synchronized void remember(Key key, Entry mine, Api.Reply reply) {
        if (entries.get(key.id()) == mine) {
            mine.reply = reply;
            bytes += mine.bytes();
            evict();
        }
    }

    private synchronized void forget(Key key, Entry mine) {
        entries.remove(key.id(), mine);
    }

    private void expire(long now) {
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Entry e = it.next().getValue();
            // A running entry is never expired: its reservation is what stops a second run.
            if (now - e.at <= windowNanos || e.reply == null) {
                return;
            }
            bytes -= e.bytes();
            it.remove();
        }
    }

    /**
     * Forgets the oldest answered keys past the bounds. A key whose request is still running is
     * never evicted: its entry is what makes a concurrent duplicate wait (409) instead of running
     * twice. Running keys are bounded by the requests in flight, so the bounds still hold once
     * they answer.
     */
    private void evict() {
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while ((entries.size() > maxKeys || bytes > MAX_BYTES) && it.hasNext()) {
            Entry e = it.next().getValue();
            if (e.reply == null) {
                continue;
            }
            bytes -= e.bytes();
            it.remove();
        }
    }
}
