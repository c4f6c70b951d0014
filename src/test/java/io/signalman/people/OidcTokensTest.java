package io.signalman.people;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.json.Json;
import io.vertx.core.Vertx;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.EnumSet;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bearer JWTs of an OpenID Connect provider: a token the provider signed, for this audience and
 * issuer, not expired, names a user with the roles of its claim; unsigned ({@code alg: none}),
 * HMAC-signed with the provider's public key (the algorithm confusion attack), expired,
 * wrong-audience, wrong-issuer and foreign-key tokens are refused, each counted under its reason.
 */
class OidcTokensTest {

    private static final String ISSUER = "https://idp.example.com/realms/desk";
    private static final String AUDIENCE = "signalman";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    @TempDir
    static Path dir;
    private static Vertx vertx;
    private static KeyPair provider;
    private static OidcTokens oidc;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        provider = g.generateKeyPair();
        RSAPublicKey pub = (RSAPublicKey) provider.getPublic();
        String jwks = Json.write(Json.object().set("keys", Json.array().add(Json.object().put("kty", "RSA").put("kid", "k1")
                .put("use", "sig").put("alg", "RS256").put("n", unsigned(pub.getModulus())).put("e", unsigned(pub.getPublicExponent())))));
        Path file = dir.resolve("jwks.json");
        Files.writeString(file, jwks);
        oidc = OidcTokens.create(vertx, new OidcConfig(ISSUER, AUDIENCE, file.toString(), "realm_access.roles",
                "preferred_username", 30));
    }

    @AfterAll
    static void stop() {
        if (oidc != null) {
            oidc.close();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @Test
    void aTokenTheProviderSignedNamesTheUserWithTheRolesOfItsClaim() throws Exception {
        Principal p = oidc.verify(rs256(claims(AUDIENCE, ISSUER, 300), provider));
        assertEquals("ana", p.name());
        assertEquals(EnumSet.of(Role.AUTHOR, Role.APPROVER), p.roles());
        assertEquals("oidc", p.how());
    }

    @Test
    void unsignedConfusedExpiredForeignAndMisdirectedTokensAreRefused() throws Exception {
        String body = B64.encodeToString(claims(AUDIENCE, ISSUER, 300).getBytes(StandardCharsets.UTF_8));
        String none = B64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "." + body + ".";
        assertEquals("jwt_unsigned", reason(none));
        String noneSigned = B64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "." + body
                + ".AAAA";
        assertEquals("jwt_algorithm", reason(noneSigned));
        assertEquals("jwt_algorithm", reason(hs256WithThePublicKey(body)));
        assertEquals("jwt_expired", reason(rs256(claims(AUDIENCE, ISSUER, -3600), provider)));
        assertEquals("jwt_audience", reason(rs256(claims("another-app", ISSUER, 300), provider)));
        assertEquals("jwt_issuer", reason(rs256(claims(AUDIENCE, "https://evil.example.com", 300), provider)));
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        assertEquals("jwt_signature", reason(rs256(claims(AUDIENCE, ISSUER, 300), g.generateKeyPair())));
    }

    private static String reason(String token) {
        PeopleRefused r = assertThrows(PeopleRefused.class, () -> oidc.verify(token));
        assertEquals(403, r.status());
        assertTrue(!r.getMessage().contains(token), "a refusal never holds the token");
        return r.details().path("reason").asText();
    }

    private static String claims(String audience, String issuer, long expiresIn) {
        long now = System.currentTimeMillis() / 1000;
        return Json.write(Json.object().put("iss", issuer).put("aud", audience).put("sub", "f00").put("preferred_username", "ana")
                .put("iat", now - 10).put("exp", now + expiresIn)
                .set("realm_access", Json.object().set("roles", Json.array().add("author").add("approver").add("offline_access"))));
    }

    private static String rs256(String claims, KeyPair key) throws Exception {
        String signed = B64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"k1\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + B64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        Signature s = Signature.getInstance("SHA256withRSA");
        s.initSign(key.getPrivate());
        s.update(signed.getBytes(StandardCharsets.US_ASCII));
        return signed + "." + B64.encodeToString(s.sign());
    }

    private static String hs256WithThePublicKey(String body) throws Exception {
        String signed = B64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"k1\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + body;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(provider.getPublic().getEncoded(), "HmacSHA256"));
        return signed + "." + B64.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String unsigned(BigInteger i) {
        byte[] b = i.toByteArray();
        if (b.length > 1 && b[0] == 0) {
            b = java.util.Arrays.copyOfRange(b, 1, b.length);
        }
        return B64.encodeToString(b);
    }
}
