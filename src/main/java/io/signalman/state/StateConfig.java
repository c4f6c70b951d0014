package io.signalman.state;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a server keeps state: where, how long, how much.
 *
 * @param durable        keep state under {@code --data} (true by default); false keeps it in memory only
 *                       (tests and the benchmark's in-memory baseline)
 * @param retention      finished entries (a conversation that ended, an FSM instance in a state with no
 *                       way out) are removed this long after their last change ({@code --state-retention})
 * @param idleRetention  live entries are removed this long after their last change ({@code --state-idle-retention})
 * @param maxEntries     entries one store holds at most; a create beyond it is refused (507
 *                       {@code state_full}) rather than running out of memory ({@code --state-max-entries})
 * @param jdbcUrl        a cluster's shared PostgreSQL ({@code --state-jdbc}), or null
 * @param clock          the time retention is measured with (a test moves it; production uses the system clock)
 */
public record StateConfig(boolean durable, Duration retention, Duration idleRetention, int maxEntries, String jdbcUrl,
                          Clock clock) {

    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    public static final Duration DEFAULT_IDLE_RETENTION = Duration.ofDays(30);
    public static final int DEFAULT_MAX_ENTRIES = 1_000_000;

    public StateConfig {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(idleRetention, "idleRetention");
        Objects.requireNonNull(clock, "clock");
        if (retention.isNegative() || retention.isZero() || idleRetention.isNegative() || idleRetention.isZero()) {
            throw new IllegalArgumentException("state retention periods must be positive");
        }
        if (maxEntries < 1) {
            throw new IllegalArgumentException("--state-max-entries must be at least 1");
        }
    }

    public static StateConfig defaults() {
        return new StateConfig(true, DEFAULT_RETENTION, DEFAULT_IDLE_RETENTION, DEFAULT_MAX_ENTRIES, null, Clock.systemUTC());
    }

    public StateConfig inMemory() {
        return new StateConfig(false, retention, idleRetention, maxEntries, jdbcUrl, clock);
    }

    public StateConfig withClock(Clock c) {
        return new StateConfig(durable, retention, idleRetention, maxEntries, jdbcUrl, c);
    }

    public StateConfig withMaxEntries(int n) {
        return new StateConfig(durable, retention, idleRetention, n, jdbcUrl, clock);
    }

    public StateConfig withJdbc(String url) {
        return new StateConfig(durable, retention, idleRetention, maxEntries, url, clock);
    }

    /** Tombstones of expired entries are kept this long, so that a GET says "expired", not "unknown". */
    public Duration tombstoneRetention() {
        return retention;
    }

    /** A retention flag's value: {@code 7d}, {@code 12h}, {@code 30m}, {@code 90s}, or ISO-8601 ({@code P7D}, {@code PT1H}). */
    public static Duration parseDuration(String flag, String text) {
        String t = text.trim();
        try {
            if (t.startsWith("P") || t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(java.util.Locale.ROOT));
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 'd' -> Duration.ofDays(n);
                case 'h' -> Duration.ofHours(n);
                case 'm' -> Duration.ofMinutes(n);
                case 's' -> Duration.ofSeconds(n);
                default -> throw new IllegalArgumentException();
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--" + flag + " takes a duration such as 7d, 12h, 30m, 90s or P7D, not \""
                    + text + "\"");
        }
    }

    @Override
    public String toString() {
        return "state=" + (jdbcUrl != null ? "jdbc" : durable ? "data" : "memory") + " state-retention=" + retention
                + " state-idle-retention=" + idleRetention + " state-max-entries=" + maxEntries;
    }
}
