package io.signalman.engine.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A constraint as an analyst says it: {@code subtype str[startsWith] "trade."} is "the subtype
 * starts with trade.", {@code priority == "critical" || priority == "high"} is "the priority is
 * critical or the priority is high", {@code !mayPublish($m.subtype)} is "the card may not publish
 * the message's subtype". A form it does not know is left to the raw text (null), which the page
 * keeps one click away in any case. The text is bounded by the rule language (a condition is at
 * most 2,000 characters), and every pattern here is a single pass without nested repetition.
 */
final class Phrases {

    private static final Pattern COMPARE = Pattern.compile("^(!?)\\s*([$\\w.]+)\\s*(==|!=|>=|<=|>|<|str\\[startsWith\\]|"
            + "str\\[endsWith\\]|contains|matches|not in|in)\\s*(.+)$");
    private static final Pattern CALL = Pattern.compile("^(!?)\\s*(\\w+)\\(([^()]*)\\)$");
    /** What a call may take to be said in words: a field, a binding's field, or a quoted text. */
    private static final Pattern ARG = Pattern.compile("[$\\w.]+|\"[^\"]*\"");

    /** A call whose words start with a modal or a verb of being: negated after it ("may not publish"). */
    private static final Pattern MODAL = Pattern.compile("^(may|can|must|should|is|has|does)(?: (.+))?$");
    /** The fact the constraint is about, for the call being said (one constraint per call of {@link #of}). */
    private static final ThreadLocal<String> SUBJECT = new ThreadLocal<>();

    private Phrases() {
    }

    /** The constraint in words, or null when its form is not one this knows. */
    static String of(String constraint) {
        return of(constraint, null);
    }

    /**
     * The constraint in words, a call on the fact said of it: {@code !mayPublish($m.subtype)} on a
     * {@code Card} is "the card may not publish the message's subtype". {@code pattern}: the fact's
     * type, or null.
     */
    static String of(String constraint, String pattern) {
        if (constraint == null || constraint.length() > 2_000) {
            return null;
        }
        try {
            SUBJECT.set(pattern == null || !pattern.matches("[A-Za-z]\\w{0,60}") ? null : "the " + words(pattern));
            return said(constraint);
        } catch (RuntimeException e) {
            // Words are a courtesy: a form this reads wrongly leaves the raw text, never fails an explanation.
            return null;
        }
    }

    private static String said(String constraint) {
        List<String> parts = new ArrayList<>();
        for (String alternative : split(constraint.strip(), "||")) {
            List<String> all = new ArrayList<>();
            for (String each : split(alternative, "&&")) {
                String w = one(each.strip());
                if (w == null) {
                    return null;
                }
                all.add(w);
            }
            parts.add(String.join(" and ", all));
        }
        return String.join(" or ", parts);
    }

    private static String one(String c) {
        if (c.startsWith("(") && c.endsWith(")")) {
            return said(c.substring(1, c.length() - 1));
        }
        Matcher call = CALL.matcher(c);
        if (call.matches() && split(call.group(3), ",").stream().allMatch(a -> a.isBlank() || ARG.matcher(a.strip()).matches())) {
            String what = words(call.group(2));
            String args = call.group(3).isBlank() ? "" : " " + String.join(" and ", split(call.group(3), ",").stream()
                    .map(a -> name(a.strip())).toList());
            boolean not = !call.group(1).isEmpty();
            java.util.regex.Matcher modal = MODAL.matcher(what);
            if (modal.matches()) {
                // A call that says what the fact may, can or is: "the card may not publish the message's subtype"
                String subject = SUBJECT.get();
                String verb = not ? modal.group(1) + " not" + (modal.group(2).isEmpty() ? "" : " " + modal.group(2)) : what;
                return (subject == null ? "" : subject + " ") + verb + args;
            }
            return not ? what + args + " does not hold" : what + args + " holds";
        }
        Matcher m = COMPARE.matcher(c);
        if (!m.matches()) {
            return null;
        }
        boolean not = !m.group(1).isEmpty();
        String field = name(m.group(2));
        String value = value(m.group(4).strip());
        String says = switch (m.group(3)) {
            case "==" -> field + " is " + value;
            case "!=" -> field + " is not " + value;
            case ">" -> field + " is above " + value;
            case ">=" -> field + " is at least " + value;
            case "<" -> field + " is below " + value;
            case "<=" -> field + " is at most " + value;
            case "str[startsWith]" -> field + " starts with " + value;
            case "str[endsWith]" -> field + " ends with " + value;
            case "contains" -> field + " contains " + value;
            case "in" -> field + " is one of " + value;
            case "not in" -> field + " is none of " + value;
            default -> field + " matches the pattern " + value;
        };
        return not ? "not (" + says + ")" : says;
    }

    /** {@code $m.fromAgent} is "the message's from agent"; {@code priority} is "the priority". */
    private static String name(String path) {
        if (path.startsWith("\"")) {
            return value(path);
        }
        String[] parts = path.split("\\.");
        if (parts.length == 0 || parts[parts.length - 1].isEmpty()) {
            throw new IllegalArgumentException("no field in " + path);
        }
        if (parts.length == 2 && parts[0].startsWith("$")) {
            return "the " + owner(parts[0]) + "'s " + words(parts[1]);
        }
        return "the " + words(parts[parts.length - 1]);
    }

    private static String owner(String binding) {
        return switch (binding) {
            case "$m" -> "message";
            case "$s" -> "signal";
            default -> words(binding.substring(1));
        };
    }

    /** {@code fromAgent} is "from agent". */
    private static String words(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1 $2").replace('_', ' ').toLowerCase(Locale.ROOT);
    }

    /** A quoted text loses its quotes; a list in parentheses is listed; anything else is as written. */
    private static String value(String v) {
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") && v.indexOf('"', 1) == v.length() - 1) {
            return v.substring(1, v.length() - 1);
        }
        if (v.startsWith("(") && v.endsWith(")")) {
            return String.join(", ", split(v.substring(1, v.length() - 1), ",").stream().map(x -> value(x.strip())).toList());
        }
        return v.startsWith("$") ? name(v) : v;
    }

    /** Splits at {@code sep} outside quotes and parentheses. */
    private static List<String> split(String s, String sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' && (i == 0 || s.charAt(i - 1) != '\\')) {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && s.startsWith(sep, i)) {
                out.add(s.substring(from, i));
                from = i + sep.length();
                i += sep.length() - 1;
            }
        }
        out.add(s.substring(from));
        return out;
    }
}
