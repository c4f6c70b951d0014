package io.signalman.engine;

import java.security.SecureRandom;

/**
 * ULIDs for decision ids: 48 bits of milliseconds then 80 random bits, Crockford base32, so ids
 * sort by time as text. Within one millisecond the random part is incremented, so ids from one
 * generator are strictly increasing (monotonic ULID).
 */
public final class Ulid {

    private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final Ulid DEFAULT = new Ulid();

    private final SecureRandom random = new SecureRandom();
    private long lastMillis = -1;
    private long hi16;
    private long lo64;

    public static String next() {
        return DEFAULT.generate(System.currentTimeMillis());
    }

    /** Synchronized: a handful of nanoseconds, and it keeps ids monotonic across threads. */
    public synchronized String generate(long millis) {
        if (millis <= lastMillis) {
            millis = lastMillis;
            lo64++;
            if (lo64 == 0) {
                hi16 = (hi16 + 1) & 0xFFFF;
            }
        } else {
            lastMillis = millis;
            hi16 = random.nextInt() & 0xFFFF;
            lo64 = random.nextLong();
        }
        char[] out = new char[26];
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET[(int) (millis & 31)];
            millis >>>= 5;
        }
        // 80 random bits = hi16 (16 bits) followed by lo64 (64 bits), written as 16 base32 digits.
        long lo = lo64;
        long hi = hi16;
        for (int i = 25; i >= 10; i--) {
            out[i] = ALPHABET[(int) (lo & 31)];
            lo = (lo >>> 5) | ((hi & 31) << 59);
            hi >>>= 5;
        }
        return new String(out);
    }
}
