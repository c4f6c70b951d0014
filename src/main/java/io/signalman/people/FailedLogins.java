package io.signalman.people;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Failed authentications per client address, as a token bucket: an address may fail
 * {@code perMinute} times in a burst, and earns one more try every {@code 60 / perMinute}
 * seconds; an address with none left is refused before its token is even looked at (429), so
 * guessing costs the guesser time, and the server no slow hashes. The address is the
 * connection's peer, never a forwarding header a client could write. Bounded: past
 * {@link #MAX_ADDRESSES} addresses, those that have earned back every try are forgotten first.
 */
final class FailedLogins {

    static final int MAX_ADDRESSES = 100_000;

    private record Bucket(double tokens, long at) {
    }

    private final int perMinute;
    private final LongSupplier nanos;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    FailedLogins(int perMinute, LongSupplier nanos) {
        if (perMinute < 1) {
            throw new IllegalArgumentException("--auth-failures-per-minute must be at least 1, not " + perMinute);
        }
        this.perMinute = perMinute;
        this.nanos = nanos;
    }

    /** Seconds until {@code address} may try again; 0 when it may now. */
    long waitSeconds(String address) {
        Bucket b = buckets.get(address);
        if (b == null) {
            return 0;
        }
        double tokens = refill(b, nanos.getAsLong());
        if (tokens >= 1) {
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - tokens) * 60.0 / perMinute));
    }

    /** Counts a failure of {@code address}. */
    void failed(String address) {
        if (buckets.size() >= MAX_ADDRESSES) {
            prune();
        }
        long now = nanos.getAsLong();
        buckets.compute(address, (k, b) -> new Bucket((b == null ? perMinute : refill(b, now)) - 1, now));
    }

    private double refill(Bucket b, long now) {
        double earned = (now - b.at()) / (double) TimeUnit.MINUTES.toNanos(1) * perMinute;
        return Math.min(perMinute, b.tokens() + earned);
    }

    private void prune() {
        long now = nanos.getAsLong();
        buckets.entrySet().removeIf(e -> refill(e.getValue(), now) >= perMinute);
        if (buckets.size() >= MAX_ADDRESSES) {
            buckets.clear(); // a flood from more addresses than this: forgetting beats running out of memory
        }
    }
}
