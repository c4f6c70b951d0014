package io.signalman.http;

import static io.signalman.http.HttpCalls.error;
import static io.signalman.http.HttpCalls.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /bench/echo} on a server started with the bench flag: a JSON body comes back as the
 * same JSON, and whatever a decision endpoint refuses before deciding (bad JSON, a body over the
 * limit, another media type) the echo refuses with the same answer, so that it measures what a
 * decision must at least do. Without the flag the path is a 404 (HttpApiTest).
 */
class BenchEchoTest {

    private static final String ROUTE = "/v1/broker/route";

    @RegisterExtension
    static final TestServer server = TestServer.starting(dir -> Server.start(TestBundles.seedServer().withData(dir)
            .withBlockedWarnMs(200).withBenchEndpoints(true)));

    @Test
    void aJsonBodyComesBackAsTheSameJson() throws Exception {
        // Given a body with nesting, arrays, every scalar type, text beyond ASCII and a decimal no double holds
        String body = "{\"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"high\"}, \"type\": \"event\","
                + " \"subtype\": \"trade.executed\", \"payload\": {\"qty\": 3, \"price\": 0.1000000000000000000000000001,"
                + " \"tags\": [\"a\", null, true, false, -7], \"note\": \"Zürich → 東京 🚀\", \"empty\": {}}}";

        HttpResponse<String> r = server.post(BenchEcho.ECHO, body);

        // Then it is answered 200 as JSON, the same document, the decimal exactly as sent
        assertEquals(Json.parse(body), json(r, 200));
        assertTrue(r.body().contains("0.1000000000000000000000000001"), r.body());
    }

    @Test
    void aDocumentThatIsNotAnObjectComesBackToo() throws Exception {
        for (String body : List.of("[1, 2, {\"a\": []}]", "\"text\"", "42", "null")) {
            assertEquals(Json.parse(body), json(server.post(BenchEcho.ECHO, body), 200), body);
        }
    }

    @Test
    void badJsonIsRefusedWithTheSame400AsADecisionEndpoint() {
        List<byte[]> bad = List.of(
                bytes("{\"envelope\": "),
                bytes("{\"a\": 1} trailing"),
                bytes("{\"a\": 1, \"a\": 2}"),
                bytes("{\"a\": 1e999}"),
                bytes(""),
                // a byte-order mark, an overlong '/', an encoded surrogate: not strict UTF-8
                new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'},
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'},
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'});
        for (byte[] body : bad) {
            JsonNode echo = error(postBytes(BenchEcho.ECHO, body), 400);
            JsonNode decision = error(postBytes(ROUTE, body), 400);

            assertEquals(decision, echo, new String(body, StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void aBodyOverTheLimitIsRefusedWith413AsADecisionEndpointRefusesIt() {
        String big = "{\"blob\": \"" + "a".repeat(70 * 1024) + "\"}";

        JsonNode echo = error(server.post(BenchEcho.ECHO, big), 413);

        assertEquals(error(server.post(ROUTE, big), 413), echo);
    }

    @Test
    void aBodyThatIsNotJsonByItsMediaTypeIsRefusedWith415AsADecisionEndpointRefusesIt() {
        JsonNode echo = error(post(BenchEcho.ECHO, "text/plain", "{}"), 415);

        assertEquals(error(post(ROUTE, "text/plain", "{}"), 415), echo);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> postBytes(String path, byte[] body) {
        return HttpCalls.send(HttpRequest.newBuilder(server.uri(path)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private static HttpResponse<String> post(String path, String type, String body) {
        return HttpCalls.send(HttpRequest.newBuilder(server.uri(path)).header("content-type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
