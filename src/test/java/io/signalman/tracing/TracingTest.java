package io.signalman.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.signalman.Await;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.json.Json;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tracing on (issue 41): a server whose spans go to the SDK's in-memory exporter. A decision
 * request is a span (Vert.x's), its decision a child span naming the pack, the rule, the revision
 * and the trial arm; a caller's W3C {@code traceparent}, over HTTP or on an event-bus message,
 * makes both part of the caller's trace; and the decision's record names the trace.
 */
class TracingTest {

    private static final String TOKEN = "tracing-test-token";
    private static final String ROUTE = "/v1/broker/route";
    /** The broker's event-bus address (docs: the same JSON as the route). */
    private static final String BROKER_ADDRESS = "signalman.broker.route";
    private static final String TRADE_RULE = "trade messages go to VP Trading";
    private static final AttributeKey<String> PACK = AttributeKey.stringKey("signalman.pack");
    private static final AttributeKey<String> RULE = AttributeKey.stringKey("signalman.rule");
    private static final AttributeKey<String> REVISION = AttributeKey.stringKey("signalman.revision");
    private static final AttributeKey<String> DECISION_ID = AttributeKey.stringKey("signalman.decision_id");
    private static final AttributeKey<String> ARM = AttributeKey.stringKey("signalman.trial.arm");
    private static final AttributeKey<String> TRIAL = AttributeKey.stringKey("signalman.trial.id");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;
    private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();
    private static Server server;

    @BeforeAll
    static void start() throws Exception {
        server = Server.start(TestBundles.editableSeedServer(dir).withAdminToken(TOKEN)
                .withTracing(TracingConfig.exportingTo(SPANS)));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void forgetEarlierSpans() {
        server.tracing().flush();
        SPANS.reset();
    }

    @Test
    void aDecisionIsASpanUnderTheCallersTraceAndItsRecordNamesThatTrace() throws Exception {
        // Given a caller's trace: a W3C traceparent naming its span, sampled
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpan = "00f067aa0ba902b7";

        // When it routes a trade message with it
        HttpResponse<String> r = post(ROUTE, trade("m-traced"), "00-" + traceId + "-" + callerSpan + "-01");
        JsonNode answer = ok(r);

        // Then Vert.x's server span for the request is a child of the caller's span, in its trace
        SpanData request = span(s -> s.getKind() == SpanKind.SERVER && traceId.equals(s.getTraceId()));
        assertEquals(callerSpan, request.getParentSpanId());
        // and the decision is a span under the request's, naming the pack, the rule, the revision and the arm
        SpanData decision = span(s -> s.getName().equals("signalman.decide broker") && traceId.equals(s.getTraceId()));
        assertEquals(request.getSpanId(), decision.getParentSpanId());
        assertEquals("broker", decision.getAttributes().get(PACK));
        assertEquals(TRADE_RULE, decision.getAttributes().get(RULE));
        assertEquals(answer.get("rules_revision").asText(), decision.getAttributes().get(REVISION));
        assertEquals(answer.get("decision_id").asText(), decision.getAttributes().get(DECISION_ID));
        assertEquals("live", decision.getAttributes().get(ARM));
        assertNull(decision.getAttributes().get(TRIAL), "no trial runs");
        // and the decision's record carries the trace id, so a trace and a replay meet
        assertEquals(traceId, record(answer.get("decision_id").asText()).path("trace_id").asText());
    }

    @Test
    void aRequestWithoutATraceBeginsOneAndItsRecordNamesIt() throws Exception {
        // Given a request with no traceparent
        JsonNode answer = ok(post(ROUTE, trade("m-untraced"), null));

        // Then the decision span's parent is a root server span, and the record names that new trace
        SpanData decision = span(s -> s.getName().equals("signalman.decide broker")
                && answer.get("decision_id").asText().equals(s.getAttributes().get(DECISION_ID)));
        SpanData request = span(s -> s.getSpanId().equals(decision.getParentSpanId()));
        assertEquals(SpanKind.SERVER, request.getKind());
        assertFalse(request.getParentSpanContext().isValid(), "a request with no traceparent begins a trace");
        assertEquals(decision.getTraceId(), record(answer.get("decision_id").asText()).path("trace_id").asText());
    }

    @Test
    void aTraceparentOnAnEventBusMessageIsCarriedToTheDecision() throws Exception {
        // Given a message on the broker's address with a traceparent header, as a traced Vert.x sender sets it
        String traceId = "0af7651916cd43dd8448eb211c80319c";
        String callerSpan = "b7ad6b7169203331";
        DeliveryOptions headers = new DeliveryOptions().addHeader("traceparent", "00-" + traceId + "-" + callerSpan + "-01");

        Message<Object> reply = server.vertx().eventBus().request(BROKER_ADDRESS, new JsonObject(trade("m-bus")), headers)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String decisionId = ((JsonObject) reply.body()).getString("decision_id");

        // Then the address's span (Vert.x's: a request-reply is a server span) continues the caller's,
        // and the decision is a span under it
        SpanData consumer = span(s -> callerSpan.equals(s.getParentSpanId()) && traceId.equals(s.getTraceId()));
        assertEquals(SpanKind.SERVER, consumer.getKind());
        SpanData decision = span(s -> s.getName().equals("signalman.decide broker") && traceId.equals(s.getTraceId()));
        assertEquals(consumer.getSpanId(), decision.getParentSpanId());
        assertEquals(decisionId, decision.getAttributes().get(DECISION_ID));
        assertEquals(traceId, record(decisionId).path("trace_id").asText());
    }

    @Test
    void aStatefulDecisionIsTracedToo() throws Exception {
        // Given an FSM instance's transition sent with a traceparent
        String traceId = "5bf92f3577b34da6a3ce929d0e0e4737";
        JsonNode started = ok(post("/v1/fsm/instances", "{\"machine\": \"review-flow\", \"id\": \"traced-1\"}", null));
        assertEquals("idle", started.path("current_state").asText(), started.toString());
        JsonNode acted = ok(post("/v1/fsm/instances/traced-1/actions", "{\"action\": \"start\"}",
                "00-" + traceId + "-00f067aa0ba902b8-01"));

        // Then its decision span is in the caller's trace, naming the FSM pack, and its record names the trace
        SpanData decision = span(s -> s.getName().equals("signalman.decide fsm") && traceId.equals(s.getTraceId()));
        assertEquals("fsm", decision.getAttributes().get(PACK));
        assertEquals(traceId, record(acted.get("decision_id").asText()).path("trace_id").asText());
    }

    @Test
    void aCanaryDecisionSpanNamesTheTrialAndTheCandidateArm() throws Exception {
        // Given a draft that routes trade messages to VP Engineering, on a 100% canary
        String draft = ok(201, send("POST", "/workbench/api/drafts", null)).get("id").asText();
        String file = "drafts/" + draft + "/file?path=broker/routing.drl";
        String text = ok(200, send("GET", "/workbench/api/" + file, null)).get("text").asText();
        ok(200, send("PUT", "/workbench/api/" + file, Json.object().put("text", text.replace("decide.primary(\"vp-trading\")",
                "decide.primary(\"vp-engineering\")")).put("version", 1)));
        String trial = ok(201, send("POST", "/v1/trials", Json.object().put("draft", draft).put("mode", "canary")
                .put("percent", 100))).get("id").asText();
        try {
            // When a traced trade message is routed
            String traceId = "6bf92f3577b34da6a3ce929d0e0e4738";
            JsonNode answer = ok(post(ROUTE, trade("m-canary"), "00-" + traceId + "-00f067aa0ba902b9-01"));
            assertEquals("vp-engineering", answer.get("primary_recipients").get(0).asText(), answer.toString());

            // Then its decision span names the trial, the candidate arm and the candidate's revision
            SpanData decision = span(s -> s.getName().equals("signalman.decide broker") && traceId.equals(s.getTraceId()));
            assertEquals(trial, decision.getAttributes().get(TRIAL));
            assertEquals("candidate", decision.getAttributes().get(ARM));
            assertEquals(answer.get("rules_revision").asText(), decision.getAttributes().get(REVISION));
            assertNotEquals(server.engine().bundle().revision(), decision.getAttributes().get(REVISION),
                    "the candidate's rules decided, not the live ones");
            JsonNode rec = record(answer.get("decision_id").asText());
            assertEquals("candidate", rec.path("trial").path("arm").asText());
            assertEquals(traceId, rec.path("trace_id").asText());
        } finally {
            ok(200, send("POST", "/v1/trials/" + trial + "/abort", Json.object().put("reason", "test over")));
        }
    }

    @Test
    void anInvalidTraceparentIsNoParentAndNoTraceOfTheCallers() throws Exception {
        // Given traceparents that W3C Trace Context says to ignore: an all-zero trace id, a bad version, garbage
        for (String bad : List.of("00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "not a traceparent")) {
            JsonNode answer = ok(post(ROUTE, trade("m-bad-" + bad.hashCode()), bad));

            // Then the request begins a trace of its own, and the record names that one
            SpanData decision = span(s -> s.getName().equals("signalman.decide broker")
                    && answer.get("decision_id").asText().equals(s.getAttributes().get(DECISION_ID)));
            assertFalse(span(s -> s.getSpanId().equals(decision.getParentSpanId())).getParentSpanContext().isValid(), bad);
            String logged = record(answer.get("decision_id").asText()).path("trace_id").asText();
            assertEquals(decision.getTraceId(), logged, bad);
            assertTrue(logged.matches("[0-9a-f]{32}") && !logged.equals("0".repeat(32)), logged);
        }
    }

    // ---- helpers ----------------------------------------------------------------------

    /** The one finished span that {@code which} picks, waiting for the batch processor to hand it over. */
    private static SpanData span(java.util.function.Predicate<SpanData> which) {
        try {
            return Await.value(WAIT, "a span", () -> {
                server.tracing().flush();
                List<SpanData> found = SPANS.getFinishedSpanItems().stream().filter(which).toList();
                assertTrue(found.size() <= 1, "more than one span matched: " + found);
                return found.isEmpty() ? null : found.get(0);
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the spans: " + SPANS.getFinishedSpanItems().stream()
                    .map(s -> s.getName() + " " + s.getKind() + " trace " + s.getTraceId() + " parent " + s.getParentSpanId())
                    .toList(), e);
        }
    }

    private static String trade(String id) {
        return "{\"id\": \"" + id + "\", \"envelope\": {\"from_agent\": \"foresight\", \"priority\": \"normal\"}, "
                + "\"type\": \"event\", \"subtype\": \"trade.executed\"}";
    }

    /** A decision's record in the decision log (written before its answer left). */
    private static JsonNode record(String decisionId) throws Exception {
        return io.signalman.http.HttpCalls.decisionRecord(server.decisionLog().directory(), decisionId);
    }

    private static HttpResponse<String> post(String path, String body, String traceparent) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (traceparent != null) {
            b.header("traceparent", traceparent);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(HttpResponse<String> r) throws Exception {
        assertTrue(r.statusCode() == 200 || r.statusCode() == 201, r.statusCode() + " " + r.body());
        return Json.MAPPER.readTree(r.body());
    }

    private static JsonNode ok(int status, HttpResponse<String> r) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        return Json.MAPPER.readTree(r.body());
    }

    /** An admin's call. */
    private static HttpResponse<String> send(String method, String path, JsonNode body) {
        return io.signalman.http.HttpCalls.send("http://127.0.0.1:" + server.port(), method, path,
                body == null ? null : Json.write(body), TOKEN);
    }
}
