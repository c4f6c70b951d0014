package io.signalman.people;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Bearer JWTs from an OpenID Connect provider ({@code serve --oidc-issuer ... --oidc-audience ...
 * --oidc-jwks FILE|https://...}): the issuer and audience a token must name, where the provider's
 * signing keys are (a JWKS file, or an HTTPS URL: keys fetched over plain HTTP could be swapped by
 * anyone on the way, so an {@code http://} URL is refused), the claim that holds the roles
 * ({@code roles}, or a dotted path such as {@code realm_access.roles}), the claim that names the
 * user ({@code sub}), and the clock skew allowed on {@code exp}, {@code nbf} and {@code iat}.
 */
public record OidcConfig(String issuer, String audience, String jwks, String rolesClaim, String nameClaim, int leewaySeconds) {

    public static final String DEFAULT_ROLES_CLAIM = "roles";
    public static final String DEFAULT_NAME_CLAIM = "sub";
    public static final int DEFAULT_LEEWAY_SECONDS = 30;
    public static final int MAX_LEEWAY_SECONDS = 300;

    public OidcConfig {
        if (issuer == null || issuer.isBlank()) {
            throw new IllegalArgumentException("--oidc-issuer is required with --oidc-jwks (the provider's issuer URL, as tokens name it)");
        }
        if (audience == null || audience.isBlank()) {
            throw new IllegalArgumentException("--oidc-audience is required with --oidc-jwks (the client id tokens are issued for): "
                    + "without it a token issued to any other application of the provider would be taken");
        }
        if (jwks == null || jwks.isBlank()) {
            throw new IllegalArgumentException("--oidc-jwks is required with --oidc-issuer (a JWKS file, or an https:// URL)");
        }
        String lower = jwks.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://")) {
            throw new IllegalArgumentException("--oidc-jwks " + jwks + " is plain HTTP: anyone on the way could hand the server "
                    + "keys of their own and sign any token; give an https:// URL or a file");
        }
        if (lower.contains("://") && !lower.startsWith("https://")) {
            throw new IllegalArgumentException("--oidc-jwks must be a file or an https:// URL, not " + jwks);
        }
        rolesClaim = rolesClaim == null || rolesClaim.isBlank() ? DEFAULT_ROLES_CLAIM : rolesClaim;
        nameClaim = nameClaim == null || nameClaim.isBlank() ? DEFAULT_NAME_CLAIM : nameClaim;
        if (leewaySeconds < 0 || leewaySeconds > MAX_LEEWAY_SECONDS) {
            throw new IllegalArgumentException("--oidc-leeway-s must be 0 to " + MAX_LEEWAY_SECONDS + " seconds, not " + leewaySeconds);
        }
    }

    /** Whether the keys come from a URL (fetched, and fetched again now and then) rather than a file. */
    public boolean jwksUrl() {
        return jwks.toLowerCase(Locale.ROOT).startsWith("https://");
    }

    URI uri() {
        return URI.create(jwks);
    }

    Path path() {
        return Path.of(jwks);
    }

    @Override
    public String toString() {
        return "oidc-issuer=" + issuer + " oidc-audience=" + audience + " oidc-jwks=" + jwks + " oidc-roles-claim=" + rolesClaim
                + " oidc-name-claim=" + nameClaim + " oidc-leeway-s=" + leewaySeconds;
    }
}
