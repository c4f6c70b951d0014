package io.signalman.tracing;

import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.URI;
import java.util.Locale;

/**
 * Whether and where a server sends its spans (docs/operations.md, "Tracing"). Off unless
 * {@code serve --otel-endpoint URL} is given: then OTLP over HTTP (protobuf) to that collector.
 *
 * @param endpoint    the OTLP/HTTP traces URL spans are sent to, or null
 * @param sampleRatio the share of new traces kept, 0 to 1; a request that comes with a sampled
 *                    {@code traceparent} is traced whatever this says (the caller decided)
 * @param exporter    where spans go instead of OTLP (the tests' in-memory exporter), or null
 */
public record TracingConfig(URI endpoint, double sampleRatio, SpanExporter exporter) {

    /** Tracing off: no span is made or sent; a valid incoming {@code traceparent} is still logged. */
    public static final TracingConfig OFF = new TracingConfig(null, 1.0, null);

    /** What OTLP over HTTP serves traces on, appended to an endpoint given without a path. */
    static final String TRACES_PATH = "/v1/traces";

    public TracingConfig {
        if (!(sampleRatio >= 0 && sampleRatio <= 1)) {
            throw new IllegalArgumentException("--otel-sample-ratio must be a number from 0 to 1, not " + sampleRatio);
        }
    }

    /** True when spans are made and sent somewhere. */
    public boolean on() {
        return endpoint != null || exporter != null;
    }

    /**
     * {@code --otel-endpoint URL}: an http or https URL of an OTLP collector. Given without a
     * path ({@code http://collector:4318}), spans go to its {@code /v1/traces}, as OpenTelemetry's
     * own {@code OTEL_EXPORTER_OTLP_ENDPOINT} means; given with a path, to that path.
     *
     * @throws IllegalArgumentException naming what is wrong with the URL or the ratio
     */
    public static TracingConfig otlp(String url, double sampleRatio) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("--otel-endpoint is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("--otel-endpoint needs an http:// or https:// URL with a host "
                    + "(an OTLP/HTTP collector, e.g. http://collector:4318), not " + url);
        }
        if (uri.getUserInfo() != null || uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("--otel-endpoint takes no user, query or fragment: " + url);
        }
        String path = uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/") ? TRACES_PATH : uri.getPath();
        return new TracingConfig(uri.resolve(path), sampleRatio, null);
    }

    /** Spans go to {@code exporter} (every trace kept): how the tests read them. */
    public static TracingConfig exportingTo(SpanExporter exporter) {
        return new TracingConfig(null, 1.0, java.util.Objects.requireNonNull(exporter));
    }

    @Override
    public String toString() {
        return endpoint != null ? "otel-endpoint=" + endpoint + " otel-sample-ratio=" + sampleRatio
                : exporter != null ? "otel-exporter=" + exporter.getClass().getSimpleName() : "tracing=off";
    }
}
