package io.signalman.http;

import static io.signalman.http.BodyEndpoints.error;
import static io.signalman.http.BodyEndpoints.send;
import static io.signalman.http.HttpCalls.assertRefusedNaming;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.http.BodyEndpoints.Endpoint;
import io.signalman.json.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Bad input on every endpoint that reads a body: each gets the precise status and our
 * JSON error body, never a 5xx, and a bad field of an endpoint's own is refused naming its path.
 * A second server with a larger body limit shows the JSON string-length limit holding on its own.
 */
class BadInputTest {

    private static final List<Endpoint> ENDPOINTS = BodyEndpoints.ALL;
    private static final long BIG_BODY_LIMIT = 512 * 1024;

    @RegisterExtension
    static final TestServer server = TestServer.starting(
            dir -> Server.start(TestBundles.seedServer().withData(dir).withAdminToken(BodyEndpoints.TOKEN)));
    @RegisterExtension
    static final TestServer bigBodies = TestServer.starting(dir -> Server.start(TestBundles.seedServer().withData(dir)
            .withAdminToken(BodyEndpoints.TOKEN).withBodyLimit(BIG_BODY_LIMIT)));

    // Runs after both servers have started: the extensions' callbacks come before a class's @BeforeAll.
    @BeforeAll
    static void prepare() {
        BodyEndpoints.prepare(server.port());
        BodyEndpoints.prepare(bigBodies.port());
    }

    // ---- the body limit: 413 -------------------------------------------------------------------

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aBodyOverTheLimitWithContentLengthIsA413(Endpoint e) {
        // Given the valid body padded with whitespace to one byte over 64 KiB, sent with Content-Length
        String body = padded(e.validBody(), ServerConfig.DEFAULT_BODY_LIMIT + 1);

        // Then 413 body_too_large, naming the limit
        JsonNode err = error(send(server.port(), e, body), 413, "body_too_large");
        assertTrue(err.get("message").asText().contains("65536"), err.toString());
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aChunkedBodyOverTheLimitWithoutContentLengthIsA413(Endpoint e) {
        // Given the same body streamed chunked: the server cannot know its size until it has read it
        byte[] body = padded(e.validBody(), ServerConfig.DEFAULT_BODY_LIMIT + 1).getBytes(StandardCharsets.UTF_8);
        HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body));

        error(send(server.port(), e.method(), e.path(), chunked, "application/json", e.admin()), 413, "body_too_large");
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aBodyJustUnderTheLimitIsNotA413(Endpoint e) {
        HttpResponse<String> r = send(server.port(), e, padded(e.validBody(), ServerConfig.DEFAULT_BODY_LIMIT));
        assertTrue(r.statusCode() != 413 && r.statusCode() < 500, r.statusCode() + " " + r.body());
    }

    // ---- JSON limits: nesting depth and string length ----------------------------------------

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void nestingDeeperThan32IsA400NamingTheDepthLimit(Endpoint e) {
        String deep = "[".repeat(40) + "]".repeat(40);

        JsonNode err = error(send(server.port(), e, withField(e.validBody(), "zzz", deep)), 400, "malformed_json");

        assertTrue(err.get("message").asText().contains("nesting depth"), err.toString());
        assertTrue(err.get("message").asText().contains(String.valueOf(Json.MAX_DEPTH)), err.toString());
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aStringLongerThan64KibIsA400NamingTheStringLimitEvenWhenTheBodyLimitAllowsIt(Endpoint e) {
        String huge = "\"" + "x".repeat(Json.MAX_STRING + 1) + "\"";

        JsonNode err = error(send(bigBodies.port(), e, withField(e.validBody(), "zzz", huge)), 400, "malformed_json");

        assertTrue(err.get("message").asText().contains("String value length"), err.toString());
        assertTrue(err.get("message").asText().contains(String.valueOf(Json.MAX_STRING)), err.toString());
    }

    // ---- shape: wrong types, unknown fields, wrong content type -------------------------------

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aNumberWhereTextIsExpectedIsA400NamingTheField(Endpoint e) throws Exception {
        // Given the valid body with its first text field turned into a number
        Map.Entry<String, String> mutated = firstTextFieldAsNumber(e.validBody());

        JsonNode err = error(send(server.port(), e, mutated.getValue()), 400, "invalid_input");

        assertEquals(mutated.getKey(), err.path("details").path("field").asText(), err.toString());
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void anUnknownFieldIsA400NamingIt(Endpoint e) {
        String body = withField(e.validBody(), "colour", "\"red\"");
        String expected = e.validBody().startsWith("[") ? "[0].colour" : "colour";

        JsonNode err = error(send(server.port(), e, body), 400, "invalid_input");

        assertEquals(expected, err.path("details").path("field").asText(), err.toString());
        assertTrue(err.get("message").asText().contains("colour"), err.toString());
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aDuplicatedFieldIsA400(Endpoint e) {
        String body = e.validBody().replaceFirst("\\{", "{\"dup\": 1, \"dup\": 2, ");

        JsonNode err = error(send(server.port(), e, body), 400, "malformed_json");
        assertTrue(err.get("message").asText().contains("Duplicate field 'dup'"), err.toString());
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void aPlainTextOrOtherCharsetBodyIsA415(Endpoint e) {
        for (String type : List.of("text/plain", "application/jsonx", "application/json; charset=utf-16", "application/xml")) {
            HttpResponse<String> r = send(server.port(), e.method(), e.path(), e.validBody(), type, e.admin());
            error(r, 415, "unsupported_media_type");
        }
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void mediaTypesAreComparedWithoutCaseOrParameters(Endpoint e) {
        HttpResponse<String> r = send(server.port(), e.method(), e.path(), e.validBody(), "Application/JSON; charset=\"UTF-8\"",
                e.admin());
        assertTrue(r.statusCode() != 415 && r.statusCode() < 500, r.statusCode() + " " + r.body());
    }

    @ParameterizedTest
    @FieldSource("ENDPOINTS")
    void truncatedJsonIsA400MalformedJson(Endpoint e) {
        String body = e.validBody().substring(0, e.validBody().length() / 2);
        error(send(server.port(), e, body), 400, "malformed_json");
    }

    // ---- each endpoint's own body: a bad field is named by its path; a body cut short -----------

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /v1/broker/route  | a number where priority text is expected              | {"envelope": {"from_agent": "foresight", "priority": 5}, "type": "event", "subtype": "x.y"}        | envelope.priority
            /v1/broker/route  | an unknown priority value                             | {"envelope": {"from_agent": "foresight", "priority": "urgent"}, "type": "event", "subtype": "x.y"} | envelope.priority
            /v1/broker/route  | an unknown field                                      | {"envelope": {"from_agent": "x", "prority": "low"}, "type": "event", "subtype": "x.y"}             | envelope.prority
            /v1/broker/route  | a missing envelope                                    | {"type": "event", "subtype": "x.y"}                                                                | envelope
            /v1/signals/route | an unknown signal kind                                | {"agent": "reviewer", "signal": {"kind": "bogus", "payload": {}}}                                  | signal.kind
            /v1/signals/route | an uppercase built-in kind (kinds are case-sensitive) | {"agent": "reviewer", "signal": {"kind": "Stop", "payload": {}}}                                   | signal.kind
            /v1/signals/route | a custom kind without a name                          | {"agent": "reviewer", "signal": {"kind": "custom:", "payload": {}}}                                | signal.kind
            /v1/signals/route | a missing agent                                       | {"signal": {"kind": "stop", "payload": {}}}                                                        | agent
            /v1/signals/route | a missing signal                                      | {"agent": "reviewer"}                                                                              | signal
            /v1/signals/route | an unknown top-level field                            | {"agent": "reviewer", "signal": {"kind": "stop"}, "priority": "high"}                              | priority
            /v1/signals/route | an unknown field inside the signal                    | {"agent": "reviewer", "signal": {"kind": "stop", "paylod": {}}}                                    | signal.paylod
            /v1/dispatch      | an unknown field                                      | {"channel": "telegram", "chat": {"type": "group", "idd": "1"}}                                     | chat.idd
            /v1/dispatch      | a missing channel                                     | {"sender": "u1"}                                                                                   | channel
            /v1/dispatch      | a wrong type                                          | {"channel": "telegram", "chat": {"id": -100123}}                                                   | chat.id
            /v1/dispatch      | a bad history role (named by its index)               | {"channel": "telegram", "history": [{"role": "user"}, {"role": "robot"}]}                          | history[1].role
            """)
    void aBadFieldIsRefusedNamingItsPath(String path, String why, String body, String field) {
        assertRefusedNaming(server.post(path, body), field);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            /v1/broker/route  | '{"envelope": '
            /v1/signals/route | '{"agent": '
            /v1/dispatch      | '{"channel": '
            """)
    void aBodyCutShortAfterAFieldNameIsA400MalformedJson(String path, String body) {
        assertEquals("malformed_json", HttpCalls.error(server.post(path, body), 400).get("error").asText());
    }

    // ---- HTTP itself: the request line, headers and escapes -----------------------------------

    @Test
    void aRequestLineOverTheLimitIsA414WithOurJsonBody() throws IOException {
        String path = "/v1/broker/route?explain=" + "a".repeat(HttpApi.MAX_INITIAL_LINE);

        RawResponse r = raw("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");

        assertEquals(414, r.status(), r.text());
        assertEquals("uri_too_long", BodyEndpoints.errorBody(r.body()).get("error").asText());
    }

    @Test
    void headersOverTheLimitAreA431WithOurJsonBody() throws IOException {
        String big = "X-Big: " + "a".repeat(HttpApi.MAX_HEADER_SIZE) + "\r\n";
        // Vert.x closes the connection after a 414, 431 or 400 from the codec, so reading to the end works

        RawResponse r = raw("POST /v1/broker/route HTTP/1.1\r\nHost: x\r\n" + big + "Content-Length: 2\r\n\r\n{}");

        assertEquals(431, r.status(), r.text());
        assertEquals("headers_too_large", BodyEndpoints.errorBody(r.body()).get("error").asText());
    }

    @Test
    void aRequestThatIsNotHttpIsA400WithOurJsonBody() throws IOException {
        RawResponse r = raw("HELLO\u0001 / HTTP/9\r\n\r\n");

        assertEquals(400, r.status(), r.text());
        assertEquals("bad_request", BodyEndpoints.errorBody(r.body()).get("error").asText());
    }

    @Test
    void aBadPercentEscapeInTheQueryOrPathIsA400JsonErrorNotPlainText() throws IOException {
        for (String path : List.of("/v1/broker/route?explain=%zz", "/v1/fsm/instances/%zz/actions")) {
            RawResponse r = raw("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nConnection: close\r\n\r\n{}");

            assertEquals(400, r.status(), r.text());
            assertEquals("bad_request", BodyEndpoints.errorBody(r.body()).get("error").asText());
        }
    }

    @Test
    void theServerStillDecidesAfterAllOfTheAbove() throws Exception {
        HttpResponse<String> r = send(server.port(), ENDPOINTS.get(0), BodyEndpoints.BROKER);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("trade messages go to VP Trading", Json.parse(r.body()).get("rule").asText());
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** The body with trailing whitespace up to exactly {@code size} bytes (still valid JSON). */
    private static String padded(String body, long size) {
        return body + " ".repeat((int) (size - body.getBytes(StandardCharsets.UTF_8).length));
    }

    /** The body with one more top-level field (in the first item of a batch), written as raw text. */
    private static String withField(String body, String name, String rawValue) {
        int brace = body.indexOf('{');
        return body.substring(0, brace + 1) + "\"" + name + "\": " + rawValue + ", " + body.substring(brace + 1);
    }

    private static Map.Entry<String, String> firstTextFieldAsNumber(String body) throws Exception {
        JsonNode tree = Json.parse(body.getBytes(StandardCharsets.UTF_8));
        ObjectNode target = (ObjectNode) (tree.isArray() ? tree.get(0) : tree);
        String prefix = tree.isArray() ? "[0]." : "";
        for (Iterator<String> it = target.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (target.get(f).isTextual()) {
                target.put(f, 12345);
                return Map.entry(prefix + f, Json.write(tree));
            }
        }
        throw new AssertionError("no text field in " + body);
    }

    private record RawResponse(int status, String text) {
        String body() {
            return text.substring(text.indexOf("\r\n\r\n") + 4);
        }
    }

    /** Writes bytes the JDK client would refuse to send, reads the answer until the server closes. */
    private static RawResponse raw(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new RawResponse(Integer.parseInt(text.substring(9, 12)), text);
        }
    }

}
