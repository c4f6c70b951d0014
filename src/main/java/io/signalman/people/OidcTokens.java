package io.signalman.people;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer JWTs from the configured OpenID Connect provider, verified by Vert.x's own JWT auth
 * ({@link JWTAuth}: the signature against the provider's keys, {@code exp}, {@code nbf} and
 * {@code iat} within the leeway, the issuer and the audience). Before Vert.x sees a token, its
 * header is held to what a provider's token is, because that is where the known attacks on JWT
 * live:
 * <ul>
 *   <li>{@code alg} must be an asymmetric algorithm one of the provider's keys is for:
 *       {@code none} (an unsigned token) and HMAC ({@code HS256} signed with the provider's
 *       <em>public</em> key as the secret: the algorithm confusion attack) are refused, and an
 *       {@code oct} (symmetric) key in the JWKS is never loaded;</li>
 *   <li>a {@code kid} must be plain and one of the JWKS's own ({@code ../../etc/passwd}, a URL or
 *       an SQL fragment is refused unread); {@code jku}, {@code jwk}, {@code x5u} and
 *       {@code x5c} headers (a token naming its own key) and {@code crit} are refused;</li>
 *   <li>the signature segment must be there and not empty; {@code exp} must be there.</li>
 * </ul>
 * Keys from an HTTPS URL are fetched at start, every {@link #REFRESH}, and when a token names an
 * unknown {@code kid} (at most once a minute): a provider's key rotation is picked up without a
 * restart. Every refusal is a {@link PeopleRefused} whose message names the reason, never the token.
 */
public final class OidcTokens {

    private static final Logger LOG = LoggerFactory.getLogger(OidcTokens.class);
    static final Duration REFRESH = Duration.ofMinutes(10);
    private static final Duration MIN_REFETCH = Duration.ofMinutes(1);
    private static final Set<String> ASYMMETRIC = Set.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256",
            "ES384", "ES512", "EdDSA");
    private static final Pattern KID = Pattern.compile("[A-Za-z0-9._:+/=-]{1,128}");
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_-]+");
    private static final int MAX_JWKS_BYTES = 1 << 20;
    private static final int MAX_TOKEN_CHARS = 16 * 1024;

    /** The keys loaded, and Vert.x's verifier over them. */
    private record Keys(JWTAuth auth, Set<String> algorithms, Set<String> kids) {
    }

    private final Vertx vertx;
    private final OidcConfig config;
    private final HttpClient http;
    private volatile Keys keys;
    private volatile long fetchedAt;
    /** Fetches the keys from a URL every {@link #REFRESH} (null for a file). */
    private java.util.concurrent.ScheduledExecutorService timer;

    private OidcTokens(Vertx vertx, OidcConfig config, HttpClient http) {
        this.vertx = vertx;
        this.config = config;
        this.http = http;
    }

    /**
     * Loads the provider's keys. A file that cannot be read, or holds no signing key, refuses the
     * start (IllegalArgumentException); a URL that cannot be fetched now is fetched again later,
     * and its tokens are refused meanwhile (the other ways in still work).
     */
    public static OidcTokens create(Vertx vertx, OidcConfig config) {
        return create(vertx, config, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER).build());
    }

    /** The same, fetching keys with {@code http} (a test's, trusting its own certificate). */
    public static OidcTokens create(Vertx vertx, OidcConfig config, HttpClient http) {
        OidcTokens t = new OidcTokens(vertx, config, http);
        if (!config.jwksUrl()) {
            try {
                t.keys = t.load(Files.readString(config.path(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalArgumentException("--oidc-jwks " + config.jwks() + " cannot be read: " + e.getMessage(), e);
            }
        } else {
            t.refresh();
            t.timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "signalman-oidc-keys");
                th.setDaemon(true);
                return th;
            });
            t.timer.scheduleWithFixedDelay(t::refresh, REFRESH.toMinutes(), REFRESH.toMinutes(), java.util.concurrent.TimeUnit.MINUTES);
        }
        return t;
    }

    /** Stops fetching keys. */
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    public OidcConfig config() {
        return config;
    }

    /** Whether {@code token} is shaped like a JWT (three base64url segments), so that it is this class's to judge. */
    public static boolean looksLikeJwt(String token) {
        return token.length() <= MAX_TOKEN_CHARS && token.chars().filter(c -> c == '.').count() == 2
                && token.indexOf(' ') < 0;
    }

    /**
     * The principal a valid token names. Blocking (a fetch of the keys, rarely): a worker.
     *
     * @throws PeopleRefused 403 {@code forbidden} with {@link #reason} set, for every token refused
     */
    public Principal verify(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3 || parts[2].isEmpty()) {
            throw refused("jwt_unsigned", "the token is not signed");
        }
        for (String p : parts) {
            if (!SEGMENT.matcher(p).matches()) {
                throw refused("jwt_malformed", "the token is not a JWT (base64url segments)");
            }
        }
        JsonObject header = segment(parts[0]);
        JsonObject claims = segment(parts[1]);
        String alg = header.getValue("alg") instanceof String s ? s : null;
        for (String own : new String[] {"jku", "jwk", "x5u", "x5c", "crit"}) {
            if (header.containsKey(own)) {
                throw refused("jwt_header", "the token's header carries \"" + own + "\": keys come from the configured JWKS only");
            }
        }
        if (alg == null || !ASYMMETRIC.contains(alg)) {
            throw refused("jwt_algorithm", "the token's algorithm " + (alg == null ? "(none given)" : "\"" + printable(alg) + "\"")
                    + " is not accepted: only the provider's asymmetric signatures are");
        }
        Object kid = header.getValue("kid");
        if (kid != null && !(kid instanceof String k && KID.matcher(k).matches())) {
            throw refused("jwt_kid", "the token's kid is not a key id");
        }
        Keys k = keys;
        if (k == null || kid != null && !k.kids().contains(kid) || !k.algorithms().contains(alg)) {
            if (config.jwksUrl() && System.nanoTime() - fetchedAt > MIN_REFETCH.toNanos()) {
                refresh();
                k = keys;
            }
            if (k == null) {
                throw refused("jwt_keys", "the provider's keys could not be fetched yet");
            }
            if (kid != null && !k.kids().contains(kid) || !k.algorithms().contains(alg)) {
                throw refused("jwt_kid", "the token names a key the provider's JWKS does not have");
            }
        }
        if (!(claims.getValue("exp") instanceof Number)) {
            throw refused("jwt_claims", "the token has no exp: a token that never expires is not accepted");
        }
        Future<io.vertx.ext.auth.User> f = k.auth().authenticate(new TokenCredentials(token));
        if (!f.isComplete() || f.failed()) {
            String why = f.cause() == null ? "" : String.valueOf(f.cause().getMessage());
            if (why.contains("xpired") || why.contains("iat") || why.contains("nbf")) {
                throw refused("jwt_expired", "the token is expired or not yet valid (clock skew allowed: " + config.leewaySeconds()
                        + " s)");
            }
            if (why.contains("audien")) {
                throw refused("jwt_audience", "the token is not for this audience");
            }
            if (why.contains("ssuer")) {
                throw refused("jwt_issuer", "the token is not from the configured issuer");
            }
            throw refused("jwt_signature", "the token's signature does not check");
        }
        return principal(claims);
    }

    private Principal principal(JsonObject claims) {
        Object name = claims.getValue(config.nameClaim());
        if (!(name instanceof String n) || n.isBlank() || n.length() > 256) {
            throw refused("jwt_claims", "the token has no usable \"" + config.nameClaim() + "\" claim to name the user by");
        }
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String r : roleValues(claims)) {
            for (Role role : Role.values()) {
                if (role.wire().equals(r)) {
                    roles.add(role);
                }
            }
        }
        if (roles.isEmpty()) {
            throw refused("jwt_roles", "the token grants no Signalman role in its \"" + config.rolesClaim() + "\" claim");
        }
        return new Principal(n, roles, "oidc");
    }

    /** The roles claim: an array of strings, or one string of names separated by spaces or commas. */
    private List<String> roleValues(JsonObject claims) {
        Object at = claims;
        for (String step : config.rolesClaim().split("\\.")) {
            at = at instanceof JsonObject o ? o.getValue(step) : null;
        }
        List<String> out = new ArrayList<>();
        if (at instanceof JsonArray a) {
            a.forEach(v -> {
                if (v instanceof String s) {
                    out.add(s);
                }
            });
        } else if (at instanceof String s) {
            out.addAll(List.of(s.split("[ ,]+")));
        }
        return out;
    }

    /** Fetches the keys from the URL again; a failure keeps the keys there were (logged). */
    synchronized void refresh() {
        fetchedAt = System.nanoTime();
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(config.uri()).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200 || r.body().length > MAX_JWKS_BYTES) {
                throw new IOException("HTTP " + r.statusCode() + ", " + r.body().length + " bytes");
            }
            keys = load(new String(r.body(), StandardCharsets.UTF_8));
            LOG.info("OIDC keys from {}: {} key(s)", config.jwks(), keys.kids().size());
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("cannot fetch the OIDC keys from {} ({}); tokens of that provider are refused until they can be",
                    config.jwks(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The signing keys of a JWKS document: public, asymmetric, for signatures; at least one. */
    private Keys load(String jwksText) {
        JsonObject doc;
        try {
            doc = new JsonObject(jwksText);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the JWKS " + config.jwks() + " is not JSON");
        }
        JsonArray list = doc.getJsonArray("keys", new JsonArray());
        JWTAuthOptions options = new JWTAuthOptions().setJWTOptions(new JWTOptions().setIssuer(config.issuer())
                .setAudience(List.of(config.audience())).setLeeway(config.leewaySeconds()));
        Set<String> algorithms = new HashSet<>();
        Set<String> kids = new HashSet<>();
        for (Object o : list) {
            if (!(o instanceof JsonObject jwk) || !usable(jwk)) {
                continue;
            }
            JsonObject copy = jwk.copy();
            copy.put("alg", algorithm(jwk));
            copy.put("use", "sig");
            options.addJwk(copy);
            algorithms.add(copy.getString("alg"));
            if (jwk.getValue("kid") instanceof String kid) {
                kids.add(kid);
            }
        }
        if (algorithms.isEmpty()) {
            // NOTE: Vert.x's JWT with no key at all takes unsigned tokens: never build one.
            throw new IllegalArgumentException("the JWKS " + config.jwks() + " holds no public signing key (RSA, EC or OKP)");
        }
        return new Keys(JWTAuth.create(vertx, options), Set.copyOf(algorithms), Set.copyOf(kids));
    }

    /** A key the server may verify with: asymmetric, public only, for signatures, of a known algorithm. */
    private static boolean usable(JsonObject jwk) {
        String kty = jwk.getString("kty", "");
        if (!Set.of("RSA", "EC", "OKP").contains(kty) || jwk.containsKey("d")) {
            return false; // an oct key would let HS256 tokens in; a private part has no business in a JWKS
        }
        String use = jwk.getString("use");
        if (use != null && !"sig".equals(use)) {
            return false;
        }
        Object kid = jwk.getValue("kid");
        if (kid != null && !(kid instanceof String k && KID.matcher(k).matches())) {
            return false;
        }
        String alg = algorithm(jwk);
        return alg != null && ASYMMETRIC.contains(alg);
    }

    /** The key's algorithm: its own {@code alg}, or the usual one for its type (providers often leave it out). */
    private static String algorithm(JsonObject jwk) {
        if (jwk.getValue("alg") instanceof String a) {
            return a;
        }
        return switch (jwk.getString("kty", "")) {
            case "RSA" -> "RS256";
            case "OKP" -> "EdDSA";
            case "EC" -> Map.of("P-256", "ES256", "P-384", "ES384", "P-521", "ES512").get(jwk.getString("crv", ""));
            default -> null;
        };
    }

    private static JsonObject segment(String s) {
        try {
            return new JsonObject(new String(Base64.getUrlDecoder().decode(s), StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw refused("jwt_malformed", "the token is not a JWT (its header or claims are not JSON)");
        }
    }

    private static String printable(String s) {
        return s.length() > 20 ? Names.shown(s.substring(0, 20)) + "..." : Names.shown(s);
    }

    private static PeopleRefused refused(String reason, String message) {
        return new PeopleRefused(403, "forbidden", message, io.signalman.json.Json.object().put("reason", reason));
    }
}
