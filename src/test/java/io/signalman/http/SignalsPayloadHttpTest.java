package io.signalman.http;

import static io.signalman.http.HttpCalls.json;
import static io.signalman.http.HttpCalls.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routes over the payload as a whole (issue 19, point 5; synwire's routes test the payload
 * itself): the shipped notetaker routes read {@code payloadText()} and {@code payloadIsNull()},
 * over HTTP against the shipped rules.
 */
class SignalsPayloadHttpTest {

    @TempDir
    static Path data;

    private static Server server;

    @BeforeAll
    static void start() throws Exception {
        server = Server.start(ServerConfig.defaults().withPort(0).withData(data).withFixtures(data.resolve("none")));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPayloadThatIsANonEmptyStringIsRoutedByItsText() {
        JsonNode d = route("\"buy milk\"");

        assertEquals("custom", d.at("/action/type").asText(), d.toString());
        assertEquals("take-note", d.at("/action/value").asText());
        assertEquals("the notetaker keeps a user message that is plain text", d.get("rule").asText());
    }

    @Test
    void aNullOrAbsentPayloadIsRoutedAsNull() {
        for (String payload : new String[] {"null", null}) {
            JsonNode d = route(payload);

            assertEquals("graceful_stop", d.at("/action/type").asText(), d.toString());
            assertEquals("the notetaker stops on a user message without a payload", d.get("rule").asText());
        }
    }

    @Test
    void anEmptyStringOrAnObjectIsNeitherPlainTextNorNull() {
        for (String payload : new String[] {"\"\"", "{\"text\": \"buy milk\"}", "42"}) {
            JsonNode d = route(payload);

            assertTrue(d.get("unrouted").asBoolean(), payload + " -> " + d);
        }
    }

    private static JsonNode route(String payload) {
        String body = "{\"agent\": \"notetaker\", \"signal\": {\"kind\": \"user_message\""
                + (payload == null ? "" : ", \"payload\": " + payload) + "}}";
        return json(send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/signals/route"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))), 200);
    }
}
