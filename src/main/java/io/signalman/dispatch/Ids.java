package io.signalman.dispatch;

import java.util.regex.Pattern;

/**
 * Agent and account id normalization (seed 004, {@code agent_id.go}): lower-case, runs of anything
 * outside {@code [a-z0-9_-]} become one {@code -}, leading and trailing {@code -}/{@code _} are
 * stripped, at most 64 characters; an empty result is {@code main} (agents) or {@code default}
 * (accounts).
 */
public final class Ids {

    public static final String DEFAULT_AGENT = "main";
    public static final String DEFAULT_ACCOUNT = "default";
    public static final int MAX_LENGTH = 64;

    private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");
    private static final Pattern INVALID_RUN = Pattern.compile("[^a-z0-9_-]+");

    private Ids() {
    }

    public static String agent(String id) {
        return normalize(id, DEFAULT_AGENT);
    }

    public static String account(String id) {
        return normalize(id, DEFAULT_ACCOUNT);
    }

    private static String normalize(String id, String fallback) {
        String trimmed = GoText.trim(id);
        if (trimmed.isEmpty()) {
            return fallback;
        }
        String lower = GoText.lower(trimmed);
        if (VALID.matcher(lower).matches()) {
            return lower;
        }
        String result = INVALID_RUN.matcher(lower).replaceAll("-");
        // NOTE: a loop, not "[-_]+$": a backtracking search retries that run from each of its
        // characters, quadratic in a client's "a---...---a" (2.2 s for 60,000 dashes).
        int from = 0;
        int to = result.length();
        while (from < to && (result.charAt(from) == '-' || result.charAt(from) == '_')) {
            from++;
        }
        while (to > from && (result.charAt(to - 1) == '-' || result.charAt(to - 1) == '_')) {
            to--;
        }
        result = result.substring(from, to);
        // Only [a-z0-9_-] is left, so characters are bytes and this cuts where Go's len() would.
        if (result.length() > MAX_LENGTH) {
            result = result.substring(0, MAX_LENGTH);
        }
        return result.isEmpty() ? fallback : result;
    }
}
