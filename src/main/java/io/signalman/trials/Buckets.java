package io.signalman.trials;

import java.nio.charset.StandardCharsets;

/**
 * Which arm a request's key falls in. A key (a sender, an instance, a conversation, a session) is
 * hashed with the trial's id into one of {@link #BUCKETS} buckets, the same on every node and in
 * every run; a canary at P% answers with the candidate the keys whose bucket is under P x 100.
 * So a key keeps its arm for the trial's life, raising P only adds keys (those already in stay
 * in), and another trial draws another set of keys (its id is in the hash).
 */
final class Buckets {

    /** Percent with two decimals: 0.01% is one bucket. */
    static final int BUCKETS = 10_000;

    private Buckets() {
    }

    /** The key's bucket in {@code trial}: 0 to {@link #BUCKETS} - 1. */
    static int bucket(String trial, String key) {
        return (int) Long.remainderUnsigned(hash(trial, key), BUCKETS);
    }

    /** Whether the key is among the {@code percent}% of keys the trial gives the candidate. */
    static boolean inside(String trial, String key, double percent) {
        return bucket(trial, key) < Math.round(percent * (BUCKETS / 100));
    }

    /**
     * 64-bit FNV-1a over the trial id, a zero byte and the key's UTF-8 bytes, then murmur3's
     * finaliser so that keys differing in one character spread over every bucket.
     */
    static long hash(String trial, String key) {
        long h = 0xcbf29ce484222325L;
        for (byte b : trial.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h = (h ^ 0) * 0x100000001b3L;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
