package io.signalman.handoff;

import io.signalman.engine.BundleError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the signal rules out of the handoff pack's DRL text, so that the crew check can name the
 * line of a bad signal or an unknown target, and the invariants know every termination signal
 * independently of which rule fired.
 *
 * <p>NOTE: this reads the one shape the pack's README prescribes for a signal rule (agenda-group
 * {@code terminate} or {@code route}, a {@code Turn( crew == "..", agent == ".." )} pattern,
 * {@code from $turn.match("[SIGNAL]")}, and {@code decide.terminate($said)} or
 * {@code decide.route($said, "target")}); a signal rule it cannot read is an error, so a rule never
 * escapes the check by being written differently.
 */
final class SignalRules {

    static final String TERMINATE = HandoffTier.TERMINATE.agendaGroup();
    static final String ROUTE = HandoffTier.ROUTE.agendaGroup();

    private static final Pattern RULE = Pattern.compile("^\\s*rule\\s+\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern END = Pattern.compile("^\\s*end\\s*$");
    private static final Pattern GROUP = Pattern.compile("agenda-group\\s+\"([^\"]*)\"");
    private static final Pattern CREW = Pattern.compile("\\bcrew\\s*==\\s*\"([^\"]*)\"");
    private static final Pattern AGENT = Pattern.compile("\\bagent\\s*==\\s*\"([^\"]*)\"");
    private static final Pattern MATCH = Pattern.compile("\\.match\\(\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*\\)");
    private static final Pattern TERMINATES = Pattern.compile("decide\\.terminate\\(");
    private static final Pattern ROUTES = Pattern.compile("decide\\.route\\([^,]*,\\s*\"([^\"]*)\"\\s*\\)");

    private SignalRules() {
    }

    /** The signal rules of every DRL file, in file and line order; unreadable ones become errors. */
    static List<SignalRule> read(Map<String, byte[]> files, List<BundleError> errors) {
        List<SignalRule> out = new ArrayList<>();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            if (f.getKey().endsWith(".drl")) {
                readFile(f.getKey(), new String(f.getValue(), StandardCharsets.UTF_8), out, errors);
            }
        }
        return out;
    }

    private static void readFile(String file, String text, List<SignalRule> out, List<BundleError> errors) {
        String[] lines = text.split("\n", -1);
        Draft d = null;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int n = i + 1;
            Matcher m = RULE.matcher(line);
            if (m.find()) {
                d = new Draft(m.group(1), n);
            }
            if (d == null) {
                continue;
            }
            d.group = find(GROUP, line, d.group);
            d.crew = find(CREW, line, d.crew);
            d.agent = find(AGENT, line, d.agent);
            Matcher s = MATCH.matcher(line);
            if (s.find() && d.signal == null) {
                d.signal = s.group(1).replace("\\\"", "\"");
                d.signalLine = n;
            }
            if (TERMINATES.matcher(line).find()) {
                d.terminates = true;
                d.targetLine = n;
            }
            Matcher r = ROUTES.matcher(line);
            if (r.find()) {
                d.target = r.group(1);
                d.targetLine = n;
            }
            if (END.matcher(line).matches()) {
                d.finish(file, out, errors);
                d = null;
            }
        }
    }

    private static String find(Pattern p, String line, String current) {
        if (current != null) {
            return current;
        }
        Matcher m = p.matcher(line);
        return m.find() ? m.group(1) : null;
    }

    /** A rule being read, line by line. */
    private static final class Draft {
        final String name;
        final int line;
        String group;
        String crew;
        String agent;
        String signal;
        int signalLine;
        boolean terminates;
        String target;
        int targetLine;

        Draft(String name, int line) {
            this.name = name;
            this.line = line;
        }

        void finish(String file, List<SignalRule> out, List<BundleError> errors) {
            boolean terminateTier = TERMINATE.equals(group);
            if (!terminateTier && !ROUTE.equals(group)) {
                return;
            }
            List<String> missing = new ArrayList<>();
            if (crew == null) {
                missing.add("Turn( crew == \"...\" )");
            }
            if (agent == null) {
                missing.add("Turn( agent == \"...\" )");
            }
            if (signal == null) {
                missing.add("$said : Said() from $turn.match(\"[SIGNAL]\")");
            }
            if (terminateTier && !terminates) {
                missing.add("decide.terminate($said)");
            }
            if (!terminateTier && target == null) {
                missing.add("decide.route($said, \"agent or group\")");
            }
            if (!missing.isEmpty()) {
                errors.add(new BundleError(file, line, 1, "signal rule \"" + name + "\" in agenda-group \"" + group
                        + "\" must name " + String.join(", ", missing) + " (see rules/handoff/README.md)"));
                return;
            }
            out.add(new SignalRule(name, file, line, crew, agent, signal, signalLine, terminateTier ? null : target,
                    targetLine));
        }
    }
}
