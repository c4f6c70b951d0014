package io.signalman.people;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Who a bearer token belongs to. The ways in, tried in this order:
 * <ol>
 *   <li>the single admin token ({@code --admin-token}): the bootstrap user, every role;</li>
 *   <li>a user's token ({@code smu.<credential>.<secret>}, {@link Tokens}): the credential's
 *       stored Argon2id hash is checked, one slow hash per check whoever asks, a made-up
 *       credential id included (it is checked against a hash of the same cost, so the time taken
 *       does not tell a real credential from an unknown one);</li>
 *   <li>a JWT from the configured OpenID Connect provider ({@link OidcTokens});</li>
 *   <li>the workbench's shared read token ({@code --workbench-token}): a viewer.</li>
 * </ol>
 * Fixed tokens are compared as SHA-256 digests with {@link MessageDigest#isEqual}, in the same
 * time wherever they differ. A user token that checked is remembered (by its SHA-256, never as
 * itself) for {@link #REMEMBER}, so that each request does not pay a slow hash; the user's
 * current credential is looked up on every use, so a removal or a rotation ends it at once.
 * Failures are counted per reason and per client address ({@link FailedLogins}): an address
 * past its allowance is refused (429) before its token is looked at. Blocking (a slow hash):
 * call {@link #authenticate} on a worker; {@link #remembered} is quick enough for an event loop.
 */
public final class Authenticator {

    static final long REMEMBER_NANOS = TimeUnit.MINUTES.toNanos(5);
    static final int MAX_REMEMBERED = 10_000;
    /** The reasons a failure is counted under ({@code signalman_auth_failures_total{reason}}). */
    public static final java.util.List<String> REASONS = java.util.List.of("unknown_token", "wrong_secret", "revoked",
            "jwt_unsigned", "jwt_malformed", "jwt_header", "jwt_algorithm", "jwt_kid", "jwt_keys", "jwt_claims", "jwt_expired",
            "jwt_audience", "jwt_issuer", "jwt_signature", "jwt_roles");

    /** A token that checked, remembered: whose, which credential (its hash), until when. */
    private record Remembered(Principal principal, String credentialId, String hash, long until) {
    }

    private final String adminToken;
    private final String adminName;
    private final String readToken;
    private final UserStore users;
    private final OidcTokens oidc;
    private final FailedLogins failed;
    private final LongSupplier nanos;
    private final String dummyHash;
    private final Map<String, Remembered> remembered = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final LongAdder throttled = new LongAdder();

    public Authenticator(String adminToken, String adminName, String readToken, UserStore users, OidcTokens oidc,
                         int failuresPerMinute, LongSupplier nanos) {
        this.adminToken = adminToken;
        this.adminName = adminName;
        this.readToken = readToken;
        this.users = users;
        this.oidc = oidc;
        this.failed = new FailedLogins(failuresPerMinute, nanos);
        this.nanos = nanos;
        this.dummyHash = TokenHash.unmatchable(users.cost());
        REASONS.forEach(r -> failures.put(r, new LongAdder()));
    }

    /** The bootstrap user's name ({@code admin} unless {@code --admin-token-name} says otherwise). */
    public String adminName() {
        return adminName;
    }

    /**
     * The principal of a token remembered as checked, or null (check it with {@link #authenticate}).
     * Quick: a digest and two map lookups, fine on an event loop. The bootstrap admin token is
     * compared here too (a digest and a constant-time comparison).
     */
    public Principal remembered(String token) {
        if (adminToken != null && equal(token, adminToken)) {
            return Principal.bootstrap(adminName);
        }
        Remembered r = remembered.get(digest(token));
        if (r == null || nanos.getAsLong() - r.until() > 0) {
            return null;
        }
        UserStore.User now = users.byCredential(r.credentialId());
        return now != null && now.hash().equals(r.hash()) ? principal(now) : null;
    }

    /**
     * The principal {@code token} belongs to. Blocking (a slow hash, or fetching the provider's
     * keys): a worker thread.
     *
     * @throws PeopleRefused 429 when {@code address} failed too often lately; 403 {@code forbidden}
     *                       for a token that is not valid (the same answer whatever the reason)
     */
    public Principal authenticate(String token, String address) {
        long wait = failed.waitSeconds(address);
        if (wait > 0) {
            throttled.increment();
            throw new PeopleRefused(429, "too_many_failed_authentications", "too many failed authentications from this "
                    + "address; try again in " + wait + " s", null, wait);
        }
        Principal known = remembered(token);
        if (known != null) {
            return known;
        }
        Tokens.Parts parts = Tokens.parse(token);
        if (parts != null) {
            UserStore.User u = users.byCredential(parts.credentialId());
            boolean ok = TokenHash.verify(parts.secret(), u == null ? dummyHash : u.hash());
            if (u != null && ok) {
                if (remembered.size() >= MAX_REMEMBERED) {
                    remembered.clear();
                }
                remembered.put(digest(token), new Remembered(null, u.credentialId(), u.hash(), nanos.getAsLong() + REMEMBER_NANOS));
                return principal(u);
            }
            throw fail(address, u != null ? "wrong_secret" : users.retired(parts.credentialId()) ? "revoked" : "unknown_token",
                    "the token is not valid (wrong, rotated or removed)");
        }
        if (oidc != null && OidcTokens.looksLikeJwt(token)) {
            try {
                return oidc.verify(token);
            } catch (PeopleRefused e) {
                String reason = e.details() == null ? "jwt_signature" : e.details().path("reason").asText("jwt_signature");
                throw fail(address, reason, e.getMessage());
            }
        }
        if (readToken != null && equal(token, readToken)) {
            return new Principal("workbench-token", java.util.EnumSet.of(Role.VIEWER), "read-token");
        }
        throw fail(address, "unknown_token", "the token is not valid (wrong, rotated or removed)");
    }

    private PeopleRefused fail(String address, String reason, String message) {
        failed.failed(address);
        failures.computeIfAbsent(reason, r -> new LongAdder()).increment();
        return new PeopleRefused(403, "forbidden", message);
    }

    private static Principal principal(UserStore.User u) {
        return new Principal(u.name(), u.roles(), "token");
    }

    /** Failed authentications since start, by reason. */
    public long failures(String reason) {
        LongAdder a = failures.get(reason);
        return a == null ? 0 : a.sum();
    }

    /** Requests refused (429) because their address failed too often. */
    public long throttled() {
        return throttled.sum();
    }

    private static boolean equal(String given, String expected) {
        return MessageDigest.isEqual(sha256(given), sha256(expected));
    }

    private static String digest(String token) {
        return HexFormat.of().formatHex(sha256(token));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
