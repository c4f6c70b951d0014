package io.signalman.cluster;

import com.hazelcast.map.IMap;
import io.signalman.state.SharedAnswers;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Idempotency answers in a Hazelcast map shared by the cluster ({@code signalman.idempotency}).
 * A claim is {@code putIfAbsent} with a short time to live; the answer replaces it with the
 * window as its time to live. The map evicts least-recently-used entries past its memory bound.
 * With {@code --state-jdbc}, answers (not claims) are also written through to PostgreSQL with
 * their expiry, and a missed key is looked up there ({@link PostgresEntryStore}): an evicted answer,
 * or one from before a whole-cluster restart, is still given within its window. A value is {@code [status:int][digest length:int][digest][body]}, status -1 while running.
 */
final class HazelcastAnswers implements SharedAnswers {

    private static final int RUNNING = -1;

    private final IMap<String, byte[]> map;

    HazelcastAnswers(IMap<String, byte[]> map) {
        this.map = map;
    }

    @Override
    public Optional<Held> claim(String id, byte[] digest, Duration reserve) {
        byte[] other = map.putIfAbsent(id, encode(RUNNING, digest, new byte[0]), reserve.toMillis(), TimeUnit.MILLISECONDS);
        return Optional.ofNullable(other).map(HazelcastAnswers::decode);
    }

    @Override
    public void complete(String id, byte[] digest, int status, byte[] body, Duration window) {
        map.set(id, encode(status, digest, body), window.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void release(String id) {
        map.delete(id);
    }

    /** Whether a stored value is an answer (written to the database), not a claim of a running request. */
    static boolean answered(byte[] stored) {
        return ByteBuffer.wrap(stored).getInt() != RUNNING;
    }

    static byte[] encode(int status, byte[] digest, byte[] body) {
        return ByteBuffer.allocate(8 + digest.length + body.length).putInt(status).putInt(digest.length).put(digest).put(body)
                .array();
    }

    static Held decode(byte[] stored) {
        ByteBuffer b = ByteBuffer.wrap(stored);
        int status = b.getInt();
        byte[] digest = new byte[b.getInt()];
        b.get(digest);
        byte[] body = Arrays.copyOfRange(stored, b.position(), stored.length);
        return new Held(digest, status, status == RUNNING ? null : body);
    }
}
