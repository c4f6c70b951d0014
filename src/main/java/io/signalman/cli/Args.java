package io.signalman.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Command-line flags: {@code --name value} or {@code --name=value}, boolean flags, positionals.
 * A flag not given falls back to the environment variable {@code SIGNALMAN_NAME} (dashes become
 * underscores), then to the default.
 */
final class Args {

    /** A usage error: exit code 2 and the command's usage. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    private final Map<String, String> flags = new HashMap<>();
    private final Map<String, List<String>> repeated = new HashMap<>();
    private final List<String> positional = new ArrayList<>();
    private final Map<String, String> env;

    Args(String[] argv, Set<String> valued, Set<String> booleans, Map<String, String> env) throws UsageException {
        this.env = env;
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                positional.add(a);
                continue;
            }
            String name = a.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (booleans.contains(name)) {
                flags.put(name, value == null ? "true" : value);
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 >= argv.length) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = argv[++i];
                }
                flags.put(name, value);
                repeated.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
    }

    String get(String name, String fallback) {
        String v = flags.get(name);
        if (v == null) {
            v = env.get("SIGNALMAN_" + name.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
        return v == null ? fallback : v;
    }

    int getInt(String name, int fallback) throws UsageException {
        String v = get(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number, not \"" + v + "\"");
        }
    }

    long getLong(String name, long fallback) throws UsageException {
        String v = get(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim().replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number, not \"" + v + "\"");
        }
    }

    /** Every value of a flag given more than once ({@code --pack broker --pack dispatch}), in order. */
    List<String> all(String name) {
        return repeated.getOrDefault(name, List.of());
    }

    boolean has(String name) {
        return Boolean.parseBoolean(get(name, "false"));
    }

    List<String> positional() {
        return positional;
    }
}
