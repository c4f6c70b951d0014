package io.signalman.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No silent coercion, no silent repair, no number the log cannot give back (issues 17.5, 17.6, 26.7):
 * a value of the wrong JSON type, a number beyond a double's range or too small for one, bytes
 * that are not strictly UTF-8 (overlong forms, encoded surrogates, a byte-order mark) and invalid
 * UTF-8 in a JSONL batch are 400s naming the field, offset or line; a decimal is logged exactly as
 * it was sent.
 */
class StrictInputTest {

    private static final String SIGNAL = "{\"agent\": \"reviewer\", \"signal\": {\"kind\": \"user_message\", \"payload\": %s}}";
    private static final String BROKER = TestBundles.TRADE_EXECUTED;

    @TempDir
    static Path data;
    private static Server server;

    @BeforeAll
    static void start() throws Exception {
        server = Server.start(ServerConfig.defaults().withPort(0).withData(data));
        post("/v1/handoff/conversations", "{\"crew\": \"exam\", \"id\": \"strict-1\"}", "application/json");
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCountSentAsTextOrWithAFractionIsRefusedNamingTheField() {
        for (String calls : new String[] {"\"3\"", "3.7", "3.0", "true"}) {
            String turn = "{\"agent\": \"teacher\", \"response\": \"hello\", \"tool_calls\": " + calls + "}";
            JsonNode err = HttpCalls.error(post("/v1/handoff/conversations/strict-1/turns", turn, "application/json"), 400);
            assertEquals("tool_calls", err.at("/details/field").asText(), calls + ": " + err);
        }
        String dispatch = "{\"channel\": \"telegram\", \"history\": [{\"role\": \"user\", \"tool_calls\": \"2\"}]}";
        JsonNode err = HttpCalls.error(post("/v1/dispatch", dispatch, "application/json"), 400);
        assertEquals("history[0].tool_calls", err.at("/details/field").asText(), err.toString());
    }

    @Test
    void aFlagSentAsTextOrANumberIsRefusedNamingTheField() {
        for (String mentioned : new String[] {"\"true\"", "1", "\"\""}) {
            String body = "{\"channel\": \"telegram\", \"mentioned\": " + mentioned + "}";
            JsonNode err = HttpCalls.error(post("/v1/dispatch", body, "application/json"), 400);
            assertEquals("mentioned", err.at("/details/field").asText(), mentioned + ": " + err);
        }
    }

    @Test
    void aNumberBeyondADoublesRangeIsRefusedNamingTheField() {
        for (String n : new String[] {"1e999", "-1e999", "1" + "0".repeat(400)}) {
            JsonNode err = HttpCalls.error(post("/v1/signals/route", SIGNAL.formatted("{\"quality\": " + n + "}"),
                    "application/json"), 400);
            assertEquals("invalid_input", err.get("error").asText());
            assertEquals("signal.payload.quality", err.at("/details/field").asText(), err.toString());
        }
        JsonNode err = HttpCalls.error(post("/v1/broker/route:batch", BROKER + "\n" + BROKER.substring(0, BROKER.length() - 1) + ", \"payload\": [1e999]}",
                "application/x-ndjson"), 400);
        assertEquals("[1].payload[0]", err.at("/details/field").asText(), err.toString());
    }

    @Test
    void invalidUtf8InAJsonlBatchIsRefusedNamingTheLine() {
        byte[] good = (BROKER + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] bad = BROKER.replace("trade.executed", "trade.\u00e9xecuted").getBytes(StandardCharsets.UTF_8);
        // 0xE9 alone is Latin-1's é: not UTF-8
        byte[] latin1 = new String(bad, StandardCharsets.UTF_8).getBytes(StandardCharsets.ISO_8859_1);
        byte[] body = new byte[good.length * 2 + latin1.length];
        System.arraycopy(good, 0, body, 0, good.length);
        System.arraycopy(good, 0, body, good.length, good.length);
        System.arraycopy(latin1, 0, body, good.length * 2, latin1.length);

        JsonNode err = HttpCalls.error(HttpCalls.send(request("/v1/broker/route:batch", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))), 400);

        assertEquals("malformed_json", err.get("error").asText());
        // the item, and within it the field the bad byte is in
        assertEquals("[2].subtype", err.at("/details/field").asText(), err.toString());
        assertTrue(err.get("message").asText().startsWith("line 3: "), err.toString());
        assertTrue(err.get("message").asText().contains("UTF-8"), err.toString());
    }

    @Test
    void aDecimalIsLoggedExactlyAsSent() throws Exception {
        String exact = "0.1000000000000000000000000001";
        JsonNode d = HttpCalls.json(post("/v1/signals/route", SIGNAL.formatted("{\"quality\": " + exact + ", \"w\": 2.50}"),
                "application/json"), 200);
        String id = d.get("decision_id").asText();
        Await.logged(server, id);
        Archive archive = Archive.read(List.of(data.resolve("decisions")));
        String line = archive.files().stream().flatMap(f -> f.entries().stream()).filter(e -> e.record().decisionId().equals(id))
                .map(e -> Json.write(e.record().input())).findFirst().orElseThrow();
        assertTrue(line.contains("\"quality\":" + exact), line);
        assertTrue(line.contains("\"w\":2.50"), line);
    }

    private static HttpRequest.Builder request(String path, String type) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).header("content-type", type);
    }

    @Test
    void overlongUtf8AnEncodedSurrogateAndAByteOrderMarkAreRefusedNamingTheOffsetAndField() {
        byte[] broker = BROKER.getBytes(StandardCharsets.UTF_8);
        int at = BROKER.indexOf("trade.executed") + "trade.".length();
        // Given the same message with, inside its subtype, C0 AF (an overlong '/') and ED A0 80 (an encoded surrogate)
        for (byte[] bad : new byte[][] {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}}) {
            byte[] body = new byte[broker.length + bad.length];
            System.arraycopy(broker, 0, body, 0, at);
            System.arraycopy(bad, 0, body, at, bad.length);
            System.arraycopy(broker, at, body, at + bad.length, broker.length - at);
            // When it is posted, Then 400 malformed_json naming the byte offset and the field
            JsonNode err = HttpCalls.error(postBytes("/v1/broker/route", body), 400);
            assertEquals("malformed_json", err.get("error").asText(), err.toString());
            assertTrue(err.get("message").asText().contains("at byte " + at), err.toString());
            assertEquals("subtype", err.at("/details/field").asText(), err.toString());
        }
        // ... and a byte-order mark before the JSON is refused too, at byte 0
        byte[] bom = new byte[broker.length + 3];
        bom[0] = (byte) 0xEF;
        bom[1] = (byte) 0xBB;
        bom[2] = (byte) 0xBF;
        System.arraycopy(broker, 0, bom, 3, broker.length);
        JsonNode err = HttpCalls.error(postBytes("/v1/broker/route", bom), 400);
        assertTrue(err.get("message").asText().contains("byte-order mark"), err.toString());
    }

    @Test
    void aNumberTooSmallForADoubleIsRefusedRatherThanReadAsZero() {
        for (String n : new String[] {"1e-999", "-2.5e-400"}) {
            JsonNode err = HttpCalls.error(post("/v1/signals/route", SIGNAL.formatted("{\"quality\": " + n + "}"),
                    "application/json"), 400);
            assertEquals("signal.payload.quality", err.at("/details/field").asText(), err.toString());
            assertTrue(err.get("message").asText().contains("would be read as 0"), err.toString());
        }
        // ... while 0, and a tiny number a double still holds, are fine
        for (String n : new String[] {"0", "0.0e-999", "1e-300"}) {
            assertEquals(200, post("/v1/signals/route", SIGNAL.formatted("{\"quality\": " + n + "}"), "application/json")
                    .statusCode(), n);
        }
    }

    private static HttpResponse<String> postBytes(String path, byte[] body) {
        return HttpCalls.send(request(path, "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private static HttpResponse<String> post(String path, String body, String type) {
        return HttpCalls.send(request(path, type).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Waits until the decision log has written the decision. */
    private static final class Await {
        static void logged(Server s, String id) throws Exception {
            io.signalman.Await.until(java.time.Duration.ofSeconds(10), "decision " + id + " in the log", () -> {
                try {
                    return Archive.read(List.of(data.resolve("decisions"))).files().stream().flatMap(f -> f.entries().stream())
                            .anyMatch(e -> e.record().decisionId().equals(id));
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        }
    }
}
