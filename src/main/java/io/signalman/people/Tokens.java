package io.signalman.people;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A user's token: {@code smu.<credential id>.<secret>}, 96 random bits of id (not secret: it says
 * which stored hash to check, so a check costs one slow hash, not one per user) and 256 random
 * bits of secret, base64url. A rotation makes a new id and secret, so an old token names no
 * credential at all.
 */
public final class Tokens {

    static final String PREFIX = "smu.";
    private static final Pattern FORMAT = Pattern.compile("smu\\.([0-9a-f]{24})\\.([A-Za-z0-9_-]{43})");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A token split into its parts. */
    public record Parts(String credentialId, String secret) {
        public String token() {
            return PREFIX + credentialId + "." + secret;
        }

        @Override
        public String toString() {
            return "Parts[credentialId=" + credentialId + ", secret=(hidden)]";
        }
    }

    private Tokens() {
    }

    /** A new credential id and secret. */
    public static Parts issue() {
        byte[] id = new byte[12];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        return new Parts(HexFormat.of().formatHex(id), Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** The parts of a user token, or null when {@code token} is not one (an admin token, a JWT, garbage). */
    public static Parts parse(String token) {
        if (token == null || !token.startsWith(PREFIX)) {
            return null;
        }
        Matcher m = FORMAT.matcher(token);
        return m.matches() ? new Parts(m.group(1), m.group(2)) : null;
    }
}
