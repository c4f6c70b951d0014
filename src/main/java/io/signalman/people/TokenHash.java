package io.signalman.people;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * Tokens kept as slow salted hashes: Argon2id (RFC 9106) from Bouncy Castle, stored in the PHC
 * string format {@code $argon2id$v=19$m=65536,t=3,p=1$<salt>$<hash>} with a 16-byte random salt
 * and a 32-byte hash. Verification recomputes with the stored parameters and compares in
 * constant time. Blocking and slow on purpose (tens of milliseconds at the default cost): never
 * on an event loop.
 */
public final class TokenHash {

    private static final Pattern PHC = Pattern.compile(
            "\\$argon2id\\$v=19\\$m=(\\d{1,8}),t=(\\d{1,3}),p=(\\d{1,2})\\$([A-Za-z0-9+/]{16,64})\\$([A-Za-z0-9+/]{32,128})");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64D = Base64.getDecoder();

    private TokenHash() {
    }

    /** A new hash of {@code secret} at {@code cost}, with a fresh salt. */
    public static String hash(String secret, HashCost cost) {
        byte[] salt = random(16);
        return stored(cost, salt, derive(secret, salt, cost));
    }

    /**
     * A stored hash at {@code cost} that no secret matches: a fresh salt and 32 random bytes where
     * the hash goes. {@link #verify} spends exactly what it spends on a real hash of that cost and
     * answers false (a match would take a 256-bit guess). Checking an unknown user's token against it
     * costs what a known user's costs, and making it costs nothing: hashing a made-up secret instead
     * was a whole Argon2 run on every server's start.
     */
    public static String unmatchable(HashCost cost) {
        return stored(cost, random(16), random(32));
    }

    private static String stored(HashCost cost, byte[] salt, byte[] hash) {
        return "$argon2id$v=19$m=" + cost.memoryKiB() + ",t=" + cost.iterations() + ",p=" + cost.lanes() + "$"
                + B64.encodeToString(salt) + "$" + B64.encodeToString(hash);
    }

    private static byte[] random(int length) {
        byte[] b = new byte[length];
        RANDOM.nextBytes(b);
        return b;
    }

    /** Whether {@code secret} is the one {@code stored} was made from; false for a malformed {@code stored}. */
    public static boolean verify(String secret, String stored) {
        Matcher m = stored == null ? null : PHC.matcher(stored);
        if (m == null || !m.matches()) {
            return false;
        }
        HashCost cost;
        try {
            cost = new HashCost(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        } catch (IllegalArgumentException e) {
            return false;
        }
        byte[] expected = B64D.decode(m.group(5));
        byte[] got = derive(secret, B64D.decode(m.group(4)), cost, expected.length);
        return MessageDigest.isEqual(got, expected);
    }

    private static byte[] derive(String secret, byte[] salt, HashCost cost) {
        return derive(secret, salt, cost, 32);
    }

    private static byte[] derive(String secret, byte[] salt, HashCost cost, int length) {
        Argon2Parameters p = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(cost.memoryKiB())
                .withIterations(cost.iterations()).withParallelism(cost.lanes()).withSalt(salt).build();
        Argon2BytesGenerator g = new Argon2BytesGenerator();
        g.init(p);
        byte[] out = new byte[length];
        g.generateBytes(secret.getBytes(StandardCharsets.UTF_8), out);
        return out;
    }
}
