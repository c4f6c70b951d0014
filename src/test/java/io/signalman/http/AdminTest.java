package io.signalman.http;

import static io.signalman.http.BodyEndpoints.error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.app.Server;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Admin endpoints: a bearer token compared in constant time; 401 without it, 403 with
 * a wrong one, 200 with it; on the public port by default, or only on a separate admin listener
 * bound to loopback, in which case the public port answers them 404 whatever the token.
 */
class AdminTest {

    private static final String TOKEN = "admin-test-token";
    private static final String SNAPSHOT = "{\"type\": \"fsm\", \"machine\": \"review-flow\", \"current_state\": \"idle\"}";

    /** Each admin endpoint with a body it accepts. */
    record AdminCall(String method, String path, String body) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private static final List<AdminCall> ADMIN = List.of(
            new AdminCall("POST", "/v1/rules/reload", ""),
            new AdminCall("PUT", "/v1/fsm/instances/admin-test-agent", SNAPSHOT));

    /** Admin endpoints on the public port. */
    @RegisterExtension
    static final TestServer together = TestServer.starting(
            dir -> Server.start(TestBundles.seedServer().withData(dir).withAdminToken(TOKEN)));
    /** Admin endpoints on their own loopback listener only. */
    @RegisterExtension
    static final TestServer separate = TestServer.starting(dir -> Server.start(TestBundles.seedServer().withData(dir)
            .withAdminToken(TOKEN).withAdminListener("127.0.0.1", 0)));

    @ParameterizedTest
    @FieldSource("ADMIN")
    void withoutATokenIsA401AskingForBearer(AdminCall c) {
        for (int port : List.of(together.port(), separate.server().adminPort())) {
            HttpResponse<String> r = call(port, c, null);
            error(r, 401, "unauthorized");
            assertEquals("Bearer", r.headers().firstValue("www-authenticate").orElse(""));
        }
    }

    @ParameterizedTest
    @FieldSource("ADMIN")
    void withAWrongTokenIsA403(AdminCall c) {
        for (int port : List.of(together.port(), separate.server().adminPort())) {
            for (String wrong : List.of(TOKEN + "x", TOKEN.substring(1), TOKEN.toUpperCase(java.util.Locale.ROOT))) {
                error(call(port, c, "Bearer " + wrong), 403, "forbidden");
            }
            // A scheme other than Bearer is no token at all
            error(call(port, c, "Basic " + TOKEN), 401, "unauthorized");
        }
    }

    @ParameterizedTest
    @FieldSource("ADMIN")
    void withTheRightTokenIs200(AdminCall c) {
        for (int port : List.of(together.port(), separate.server().adminPort())) {
            HttpResponse<String> r = call(port, c, "Bearer " + TOKEN);
            assertEquals(200, r.statusCode(), r.body());
        }
    }

    @ParameterizedTest
    @FieldSource("ADMIN")
    void withAnAdminListenerThePublicPortAnswers404WhateverTheToken(AdminCall c) {
        for (String auth : new String[] {null, "Bearer wrong", "Bearer " + TOKEN}) {
            HttpResponse<String> r = call(separate.port(), c, auth);
            assertTrue(error(r, 404, "not_found").get("message").asText().contains("admin listener"), r.body());
        }
    }

    @Test
    void theAdminListenerServesOnlyTheAdminEndpointsAndHealth() {
        int admin = separate.server().adminPort();
        assertEquals(200, call(admin, new AdminCall("GET", "/health", null), null).statusCode());
        error(call(admin, new AdminCall("POST", "/v1/broker/route", BodyEndpoints.BROKER), "Bearer " + TOKEN), 404, "not_found");
        error(call(admin, new AdminCall("GET", "/v1/rules", null), "Bearer " + TOKEN), 404, "not_found");
        // ... while the public port still decides
        assertEquals(200, call(separate.port(), new AdminCall("POST", "/v1/broker/route", BodyEndpoints.BROKER), null).statusCode());
    }

    @Test
    void theAdminListenerIsBoundToLoopbackByDefaultAndTheTokenIsNeverInTheConfigurationsText() {
        ServerConfig c = TestBundles.seedServer().withAdminToken(TOKEN).withAdminListener(ServerConfig.AdminListener.DEFAULT_HOST, 9091);
        assertEquals("127.0.0.1", c.adminListener().host());
        assertFalse(c.toString().contains(TOKEN), c.toString());
        assertTrue(c.toString().contains("admin-token=set"), c.toString());
        assertTrue(c.toString().contains("admin-listener=127.0.0.1:9091"), c.toString());
    }

    @Test
    void withoutAConfiguredTokenEveryAdminCallIsRefused(@TempDir Path data) throws Exception {
        try (Server none = Server.start(TestBundles.seedServer().withData(data))) {
            for (AdminCall c : ADMIN) {
                error(call(none.port(), c, "Bearer anything"), 403, "forbidden");
            }
        }
    }

    private static HttpResponse<String> call(int port, AdminCall c, String authorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + c.path()))
                .timeout(Duration.ofSeconds(60))
                .method(c.method(), c.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(c.body()));
        if (c.body() != null) {
            b.header("content-type", "application/json");
        }
        if (authorization != null) {
            b.header("authorization", authorization);
        }
        try {
            return BodyEndpoints.CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
