package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.app.Server;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * What the HTTP tests share: one client (HTTP/1.1, so the JDK never tries an h2c upgrade), a
 * bounded send, and the checks every response is held to: JSON with the expected status, and
 * for errors the {@code {"error", "message", "details"?}} shape every error has; and the readings
 * of decisions and of the decision log they share.
 */
public final class HttpCalls {

    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private HttpCalls() {
    }

    /**
     * {@code method path} on the server at {@code base} ({@code http://127.0.0.1:port}), with a
     * JSON body when {@code body} is not null and a bearer token when {@code token} is not null.
     */
    public static HttpResponse<String> send(String base, String method, String path, String body, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("content-type", "application/json");
        }
        if (token != null) {
            b.header("authorization", "Bearer " + token);
        }
        return send(b);
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

    /** A JSON body POSTed to {@code path} on {@code to}, a server a test started of its own. */
    static HttpResponse<String> post(Server to, String path, String body) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /**
     * A JSON body POSTed to {@code path} on 127.0.0.1:{@code port}, with an {@code idempotency-key}
     * header when {@code key} is not null.
     */
    static HttpResponse<String> post(int port, String path, String body, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("idempotency-key", key);
        }
        return send(b);
    }

    static HttpResponse<String> get(int port, String path) {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET());
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

    /** A 400 {@code invalid_input} whose details name {@code field}, the path of the bad field in the body. */
    static JsonNode assertRefusedNaming(HttpResponse<String> response, String field) {
        JsonNode e = error(response, 400);
        assertEquals("invalid_input", e.get("error").asText(), e.toString());
        assertEquals(field, e.path("details").path("field").asText(), e.toString());
        return e;
    }

    /** The texts of a JSON array, failing when {@code array} is not one. */
    static List<String> strings(JsonNode array) {
        assertTrue(array != null && array.isArray(), "expected an array, got " + array);
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    /** The names of the rules a decision fired, in firing order. */
    static List<String> firedRuleNames(JsonNode d) {
        return StreamSupport.stream(d.get("rules_fired").spliterator(), false).map(f -> f.get("rule").asText()).toList();
    }

    static Set<String> fieldNames(JsonNode n) {
        Set<String> names = new HashSet<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The names of the rules of {@code pack}, as the server's {@code GET /v1/rules} lists them. */
    static Set<String> ruleNames(TestServer server, String pack) {
        Set<String> names = new HashSet<>();
        json(server.get("/v1/rules"), 200).get("rules").forEach(r -> {
            if (r.get("pack").asText().equals(pack)) {
                names.add(r.get("name").asText());
            }
        });
        return names;
    }

    /**
     * The decision of {@code body} POSTed to {@code route} with {@code ?explain=true}, asserting that
     * its explain array lists every one of {@code rules} exactly once and nothing else, each with the
     * status it ended with (fired, matched-but-cancelled or not-matched), and that the rules in
     * {@code statuses} ended with theirs.
     */
    static JsonNode explainedOnce(TestServer server, String route, String body, Set<String> rules, Map<String, String> statuses) {
        JsonNode decision = json(server.post(route + "?explain=true", body), 200);
        JsonNode explain = decision.get("explain");
        assertNotNull(explain, "explain=true must add an explain array: " + decision);
        List<String> names = new ArrayList<>();
        explain.forEach(e -> names.add(e.get("rule").asText()));
        assertEquals(rules, new HashSet<>(names));
        assertEquals(names.size(), new HashSet<>(names).size(), "each rule appears once: " + names);
        explain.forEach(e -> assertTrue(Set.of("fired", "matched-but-cancelled", "not-matched").contains(e.get("status").asText()),
                "unexpected status in " + e));
        statuses.forEach((rule, status) -> assertEquals(status, statusOf(explain, rule), rule));
        return decision;
    }

    /** The status ({@code fired}, {@code not-matched}, ...) of {@code rule} in an explanation. */
    static String statusOf(JsonNode explain, String rule) {
        return StreamSupport.stream(explain.spliterator(), false).filter(e -> e.get("rule").asText().equals(rule))
                .findFirst().orElseThrow(() -> new AssertionError(rule + " is not in explain")).get("status").asText();
    }

    /** Every record of the decision log in {@code dir}, file by file in name order, each line checked to be JSON. */
    /** The record of decision {@code decisionId} in the decision log under {@code dir} (written before its answer left). */
    public static JsonNode decisionRecord(Path dir, String decisionId) throws IOException {
        return decisionRecords(dir).stream().filter(r -> decisionId.equals(r.path("decision_id").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no record " + decisionId + " in " + dir));
    }

    static List<JsonNode> decisionRecords(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        List<JsonNode> records = new ArrayList<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                try {
                    records.add(Json.parse(line));
                } catch (InputException e) {
                    throw new AssertionError(f + " has a line that is not JSON: " + line, e);
                }
            }
        }
        return records;
    }
}
