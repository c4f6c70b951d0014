package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Every endpoint that reads a body, each with one valid example body, and the few HTTP calls the
 * bad-input tests make. The FSM instance and the handoff conversation named in the paths are
 * created by {@link #prepare} so that a valid body gets a decision, not a 404.
 */
final class BodyEndpoints {

    static final String TOKEN = "bad-input-admin-token";
    static final String FSM_ID = "bad-input-agent";
    static final String CONVERSATION = "bad-input-conversation";

    // HTTP/1.1 only: the JDK client would otherwise try an h2c upgrade, which is not what is under test.
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** An endpoint that reads a JSON body; {@code admin} ones are sent with the admin token. */
    record Endpoint(String method, String path, String validBody, boolean admin) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    static final String BROKER = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"}, \"type\": \"event\","
            + " \"subtype\": \"trade.executed\", \"payload\": {\"qty\": 3}}";

    static final List<Endpoint> ALL = List.of(
            new Endpoint("POST", "/v1/broker/route", BROKER, false),
            new Endpoint("POST", "/v1/broker/route:batch", "[" + BROKER + ", " + BROKER + "]", false),
            new Endpoint("POST", "/v1/signals/route",
                    "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"user_message\", \"payload\": {\"command\": \"/approve\"}}}", false),
            new Endpoint("POST", "/v1/fsm/instances", "{\"id\": \"bad-input-new\", \"machine\": \"review-flow\"}", false),
            new Endpoint("POST", "/v1/fsm/instances/" + FSM_ID + "/actions", "{\"action\": \"review\", \"payload\": {}}", false),
            new Endpoint("PUT", "/v1/fsm/instances/" + FSM_ID,
                    "{\"type\": \"fsm\", \"machine\": \"review-flow\", \"current_state\": \"idle\"}", true),
            new Endpoint("POST", "/v1/dispatch", "{\"channel\": \"telegram\", \"chat\": {\"type\": \"group\", \"id\": \"-100123\"},"
                    + " \"sender\": \"U1\", \"message\": \"my order is late\"}", false),
            new Endpoint("POST", "/v1/handoff/conversations", "{\"crew\": \"exam\"}", false),
            new Endpoint("POST", "/v1/handoff/conversations/" + CONVERSATION + "/turns",
                    "{\"agent\": \"teacher\", \"response\": \"Question 1: 2+2? [QUESTION]\", \"tool_calls\": 0}", false),
            new Endpoint("POST", "/v1/handoff/conversations/" + CONVERSATION + "/user-input", "{\"text\": \"go on\"}", false));

    private BodyEndpoints() {
    }

    /** Creates the FSM instance and the conversation the paths name. */
    static void prepare(int port) {
        send(port, "POST", "/v1/fsm/instances", "{\"id\": \"" + FSM_ID + "\", \"machine\": \"review-flow\"}", "application/json", false);
        send(port, "POST", "/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"" + CONVERSATION + "\"}",
                "application/json", false);
    }

    static HttpResponse<String> send(int port, Endpoint e, String body) {
        return send(port, e.method(), e.path(), body, "application/json", e.admin());
    }

    static HttpResponse<String> send(int port, String method, String path, String body, String contentType, boolean admin) {
        return send(port, method, path, HttpRequest.BodyPublishers.ofString(body), contentType, admin);
    }

    static HttpResponse<String> send(int port, String method, String path, HttpRequest.BodyPublisher body, String contentType,
                                     boolean admin) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).method(method, body);
        if (contentType != null) {
            b.header("content-type", contentType);
        }
        if (admin) {
            b.header("authorization", "Bearer " + TOKEN);
        }
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Asserts the status and that the body is our error JSON with that code; returns the body. */
    static JsonNode error(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        JsonNode body = errorBody(r.body());
        assertEquals(code, body.get("error").asText(), r.body());
        return body;
    }

    /** Asserts the text is {@code {"error": "<code>", "message": "...", ...}} and returns it. */
    static JsonNode errorBody(String text) {
        JsonNode body;
        try {
            body = Json.parse(text);
        } catch (InputException e) {
            throw new AssertionError("an error body that is not JSON: " + text, e);
        }
        assertTrue(body.isObject() && body.path("error").isTextual() && body.path("message").isTextual(),
                "an error body without error and message: " + text);
        return body;
    }
}
