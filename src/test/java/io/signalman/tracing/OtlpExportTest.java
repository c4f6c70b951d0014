package io.signalman.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@code --otel-endpoint}: what the flag accepts, and spans sent over OTLP/HTTP, as protobuf, to a
 * collector's {@code /v1/traces} (a stand-in collector on 127.0.0.1 receives them).
 */
class OtlpExportTest {

    /** One request a collector received. */
    private record Received(String method, String path, String type, byte[] body) {
    }

    @Test
    void spansGoOverOtlpHttpToTheCollectorsTracesPath() throws Exception {
        // Given a collector on 127.0.0.1, named by its base URL as OTEL_EXPORTER_OTLP_ENDPOINT would be
        List<Received> received = new CopyOnWriteArrayList<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", x -> {
            received.add(new Received(x.getRequestMethod(), x.getRequestURI().getPath(),
                    x.getRequestHeaders().getFirst("content-type"), x.getRequestBody().readAllBytes()));
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        collector.start();
        Tracing tracing = Tracing.start(TracingConfig.otlp("http://127.0.0.1:" + collector.getAddress().getPort(), 1.0),
                "test-node");
        try {
            // When a span is made and the queue flushed
            Span span = tracing.tracer().spanBuilder("signalman.decide broker").startSpan();
            String traceId;
            try (Scope ignored = span.makeCurrent()) {
                traceId = Tracing.traceId();
            } finally {
                span.end();
            }
            tracing.flush();

            // Then the collector got it: a POST of protobuf to /v1/traces holding the trace id and the service's name
            assertEquals(1, received.size(), received.toString());
            Received r = received.get(0);
            assertEquals("POST", r.method());
            assertEquals("/v1/traces", r.path());
            assertEquals("application/x-protobuf", r.type());
            assertTrue(contains(r.body(), HexFormat.of().parseHex(traceId)), "the export holds trace " + traceId);
            assertTrue(contains(r.body(), "signalman.decide broker".getBytes()), "the export holds the span's name");
            assertTrue(contains(r.body(), "test-node".getBytes()), "the export names the instance");
        } finally {
            tracing.close();
            collector.stop(0);
        }
    }

    @Test
    void theEndpointFlagTakesABaseUrlOrAFullOneAndRefusesTheRest() {
        assertEquals(URI.create("http://collector:4318/v1/traces"), TracingConfig.otlp("http://collector:4318", 1).endpoint());
        assertEquals(URI.create("http://collector:4318/v1/traces"), TracingConfig.otlp("http://collector:4318/", 1).endpoint());
        assertEquals(URI.create("https://otel.example/custom/traces"),
                TracingConfig.otlp("https://otel.example/custom/traces", 1).endpoint());
        for (String bad : List.of("collector:4318", "ftp://collector/", "file:///etc/passwd", "http:///v1/traces",
                "http://user:pw@collector:4318", "http://collector:4318/v1/traces?x=1", "not a url")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TracingConfig.otlp(bad, 1), bad);
            assertTrue(e.getMessage().contains("--otel-endpoint"), e.getMessage());
        }
        for (double ratio : new double[] {-0.1, 1.5, Double.NaN}) {
            assertThrows(IllegalArgumentException.class, () -> TracingConfig.otlp("http://collector:4318", ratio));
        }
        assertTrue(TracingConfig.otlp("http://collector:4318", 0).on());
        assertFalse(TracingConfig.OFF.on());
    }

    @Test
    void offMakesNoSpansAndNamesNoTrace() {
        Span span = Tracing.OFF.tracer().spanBuilder("x").startSpan();
        try (Scope ignored = span.makeCurrent()) {
            assertFalse(span.getSpanContext().isValid());
            assertNull(Tracing.traceId());
        } finally {
            span.end();
        }
        assertNull(Tracing.OFF.vertxTracer());
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
