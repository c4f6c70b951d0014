package io.signalman.decisions;

import io.signalman.engine.Decision;
import io.signalman.engine.RuleInfo;

/**
 * Log lines in {@code key=value} form, greppable and parseable by logfmt tools: a value with a
 * space, a quote or an equals sign is quoted, with {@code "} and {@code \} escaped, so a rule
 * name ({@code rule="trade messages go to VP Trading"}) stays one value.
 */
public final class LogLine {

    private final StringBuilder sb;

    private LogLine(String event) {
        sb = new StringBuilder(160).append(event);
    }

    public static LogLine of(String event) {
        return new LogLine(event);
    }

    /** {@code decision decision_id=... pack=... endpoint=... revision=... rule="..." fired=N}. */
    public static String decision(Decision<?> d, String endpoint) {
        RuleInfo by = d.decidedBy();
        return of("decision").kv("decision_id", d.decisionId()).kv("pack", d.pack()).kv("endpoint", endpoint)
                .kv("revision", d.revision()).kv("rule", by == null ? null : by.name())
                .kv("fired", Integer.toString(d.evaluation().fired().size())).toString();
    }

    public LogLine kv(String key, String value) {
        sb.append(' ').append(key).append('=');
        if (value == null) {
            sb.append('-');
        } else if (value.isEmpty() || value.chars().anyMatch(c -> c <= ' ' || c == '"' || c == '=' || c == '\\')) {
            sb.append('"');
            value.chars().forEach(c -> {
                if (c == '"' || c == '\\') {
                    sb.append('\\');
                }
                sb.append(c < ' ' ? ' ' : (char) c);
            });
            sb.append('"');
        } else {
            sb.append(value);
        }
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
