package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;

/**
 * What the HTTP tests share: one client (HTTP/1.1, so the JDK never tries an h2c upgrade), a
 * bounded send, and the checks every response is held to: JSON with the expected status, and
 * for errors the {@code {"error", "message", "details"?}} shape every error has.
 */
final class HttpCalls {

    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private HttpCalls() {
    }

    static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The body as JSON, after checking the status and that it says it is JSON. */
    static JsonNode json(HttpResponse<String> response, int status) {
        assertEquals(status, response.statusCode(), () -> "body: " + response.body());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("application/json"),
                () -> "content-type: " + response.headers().firstValue("content-type"));
        try {
            return Json.parse(response.body());
        } catch (InputException e) {
            throw new AssertionError("response is not JSON: " + response.body(), e);
        }
    }

    /** An error response: the status, and the {"error", "message", "details"?} shape every error has. */
    static JsonNode error(HttpResponse<String> response, int status) {
        JsonNode e = json(response, status);
        assertTrue(e.get("error").isTextual() && !e.get("error").asText().isBlank(), e.toString());
        assertTrue(e.get("message").isTextual(), e.toString());
        Set<String> allowed = Set.of("error", "message", "details");
        e.fieldNames().forEachRemaining(f -> assertTrue(allowed.contains(f), "unexpected key " + f + " in " + e));
        return e;
    }
}
