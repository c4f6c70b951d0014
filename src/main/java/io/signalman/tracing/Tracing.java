package io.signalman.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.vertx.core.spi.VertxTracerFactory;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's OpenTelemetry (docs/operations.md, "Tracing"): off by default; with
 * {@code --otel-endpoint}, Vert.x's tracing makes a span per HTTP request and per event-bus
 * message (W3C {@code traceparent} taken in), the decision service a child span per decision,
 * and a batch processor sends them over OTLP without ever holding a request (a full queue drops
 * spans, counted by the SDK, never waits).
 *
 * <p>Whether on or off, a request's trace context is carried across the hop from the event loop
 * to the decision threads ({@link #carried}), so that a decision's record names the trace
 * ({@link #traceId()}) that a replay and a trace view can meet on.
 */
public final class Tracing implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);

    /** No spans made or sent. */
    public static final Tracing OFF = new Tracing(null, OpenTelemetry.noop());

    /** The instrumentation scope of the spans Signalman makes itself (Vert.x's are {@code io.vertx}). */
    public static final String SCOPE = "io.signalman";

    private static final TextMapGetter<Iterable<Map.Entry<String, String>>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Iterable<Map.Entry<String, String>> carrier) {
            java.util.List<String> keys = new java.util.ArrayList<>();
            carrier.forEach(e -> keys.add(e.getKey()));
            return keys;
        }

        @Override
        public String get(Iterable<Map.Entry<String, String>> carrier, String key) {
            if (carrier == null) {
                return null;
            }
            if (carrier instanceof io.vertx.core.MultiMap headers) {
                return headers.get(key); // HTTP and event-bus headers: a case-insensitive lookup, no walk
            }
            for (Map.Entry<String, String> e : carrier) {
                if (e.getKey().equalsIgnoreCase(key)) {
                    return e.getValue();
                }
            }
            return null;
        }
    };

    private final SdkTracerProvider provider;
    private final OpenTelemetry otel;
    private final Tracer tracer;

    private Tracing(SdkTracerProvider provider, OpenTelemetry otel) {
        this.provider = provider;
        this.otel = otel;
        String version = Tracing.class.getPackage().getImplementationVersion();
        // A null version is an API misuse the SDK answers with a no-op tracer: only a known one is given.
        this.tracer = version == null ? otel.getTracer(SCOPE) : otel.getTracer(SCOPE, version);
    }

    /**
     * Tracing as {@code config} says: {@link #OFF}, or an SDK whose spans name this service
     * ({@code service.name} signalman, {@code service.instance.id} {@code instance}) and go to the
     * configured exporter in batches.
     */
    public static Tracing start(TracingConfig config, String instance) {
        // OpenTelemetry finds its context storage (Vert.x's) through ServiceLoader on the first Context.current();
        // done here, at start, so that no event loop pays for it on a request.
        Context.current();
        W3CTraceContextPropagator.getInstance();
        if (!config.on()) {
            return OFF;
        }
        SpanExporter exporter = config.exporter() != null ? config.exporter()
                : OtlpHttpSpanExporter.builder().setEndpoint(config.endpoint().toString()).setTimeout(10, TimeUnit.SECONDS).build();
        String version = Tracing.class.getPackage().getImplementationVersion();
        Attributes service = Attributes.builder()
                .put(AttributeKey.stringKey("service.name"), "signalman")
                .put(AttributeKey.stringKey("service.version"), version == null ? "dev" : version)
                .put(AttributeKey.stringKey("service.instance.id"), instance)
                .build();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(service)))
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(config.sampleRatio())))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
                .build();
        OpenTelemetry otel = OpenTelemetrySdk.builder().setTracerProvider(provider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        LOG.info("tracing on: spans of requests and decisions go to {} ({} of new traces kept)",
                config.endpoint() != null ? config.endpoint() : config.exporter().getClass().getSimpleName(),
                String.format(Locale.ROOT, "%.0f%%", config.sampleRatio() * 100));
        return new Tracing(provider, otel);
    }

    public boolean on() {
        return provider != null;
    }

    /** Where Signalman's own spans (a decision's) are made; a no-op tracer when off. */
    public Tracer tracer() {
        return tracer;
    }

    /** Vert.x's tracer over this SDK (HTTP server requests, event-bus messages), or null when off. */
    public VertxTracerFactory vertxTracer() {
        return on() ? new OpenTelemetryTracingFactory(otel) : null;
    }

    /**
     * The trace context a request came with, on its event loop: Vert.x's span for it when tracing
     * is on, else the remote parent of a valid W3C {@code traceparent} among {@code headers}
     * (nothing is made or sent then; the trace id is only logged), else none.
     */
    public static Context incoming(Iterable<Map.Entry<String, String>> headers) {
        Context current = Context.current();
        if (Span.fromContext(current).getSpanContext().isValid() || headers == null) {
            return current;
        }
        return W3CTraceContextPropagator.getInstance().extract(current, headers, HEADERS);
    }

    /** {@code work} run with {@code context} current, on whatever thread runs it (the decision threads). */
    public static <T> Callable<T> carried(Context context, Callable<T> work) {
        return context == Context.root() ? work : context.wrap(work);
    }

    /** The trace this thread's work belongs to, 32 lowercase hex digits, or null outside any valid trace. */
    public static String traceId() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid() ? span.getTraceId() : null;
    }

    /** Sends what is queued; for tests and for a stop. */
    public void flush() {
        if (provider != null) {
            provider.forceFlush().join(10, TimeUnit.SECONDS);
        }
    }

    /** Sends what is queued (at most 10 s) and stops exporting. */
    @Override
    public void close() {
        if (provider != null) {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        }
    }
}
