package io.signalman.rulelang;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.PatternSyntaxException;

/**
 * Whether one rule's condition holds whenever another's does, for the constraint shapes analysts
 * write ({@link Test}: equality, {@code in}, prefixes and suffixes, {@code matches}, numeric
 * ranges, yes/no fields). Answers true only when it can prove it; anything else (a comparison
 * between facts, {@code not}, {@code from}) makes it answer false, so a lint built on it never
 * reports a rule that could fire.
 */
public final class Implication {

    private Implication() {
    }

    /**
     * True when every evaluation that matches {@code lower}'s condition also matches
     * {@code higher}'s. {@code alwaysPresent}: simple names of facts every evaluation holds, so an
     * unconstrained pattern of one always matches.
     */
    public static boolean implies(RuleReading lower, RuleReading higher, Set<String> alwaysPresent) {
        if (higher.opaque()) {
            return false;
        }
        for (PatternReading a : higher.patterns()) {
            if (a.source() != null || a.sourceText() != null) {
                return false;
            }
            if (a.conditions().isEmpty() && alwaysPresent.contains(simple(a.type()))) {
                continue;
            }
            boolean matched = false;
            for (PatternReading b : lower.patterns()) {
                if (b.positive() && b.source() == null && b.sourceText() == null && simple(b.type()).equals(simple(a.type()))
                        && covers(b, a)) {
                    matched = true;
                    break;
                }
            }
            if (!matched) {
                return false;
            }
        }
        return true;
    }

    /** Every constraint of {@code a} holds for any fact that meets {@code b}'s. */
    private static boolean covers(PatternReading b, PatternReading a) {
        List<Test> known = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (Condition c : b.conditions()) {
            known.addAll(c.tests());
            texts.add(squash(c.text()));
        }
        for (Condition c : a.conditions()) {
            if (c.binding() != null && c.expression() instanceof com.github.javaparser.ast.expr.NameExpr) {
                continue; // "$agent : agent" names a field and constrains nothing
            }
            List<Test> tests = c.tests();
            if (tests.isEmpty()) {
                if (!texts.contains(squash(c.text())) || c.text().contains("$")) {
                    return false;
                }
                continue;
            }
            for (Test t : tests) {
                if (known.stream().noneMatch(k -> k.field().equals(t.field()) && implies(k, t))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether a value meeting {@code k} always meets {@code t} (same field). */
    static boolean implies(Test k, Test t) {
        return switch (t.operator()) {
            case "==" -> k.operator().equals("==") && same(k.value(), t.value())
                    || k.operator().equals("in") && k.values().size() == 1 && same(k.value(), t.value());
            case "!=" -> excludes(k, t.value());
            case "in" -> k.operator().equals("==") && contains(t.values(), k.value())
                    || k.operator().equals("in") && k.values().stream().allMatch(v -> contains(t.values(), v));
            case "startsWith", "endsWith", "matches" -> values(k).stream().allMatch(v -> text(t, v))
                    && !values(k).isEmpty() || k.operator().equals(t.operator()) && narrower(k, t);
            case "<", "<=", ">", ">=" -> range(k, t);
            default -> false;
        };
    }

    /** The values a test allows, when it lists them ({@code ==}, {@code in}); else empty. */
    private static List<Object> values(Test k) {
        return k.operator().equals("==") || k.operator().equals("in") ? k.values() : List.of();
    }

    /** Whether a text value meets a startsWith, endsWith or matches test. */
    private static boolean text(Test t, Object v) {
        if (!(v instanceof String s) || !(t.value() instanceof String p)) {
            return false;
        }
        try {
            return switch (t.operator()) {
                case "startsWith" -> s.startsWith(p);
                case "endsWith" -> s.endsWith(p);
                default -> s.matches(p);
            };
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /** A longer prefix (suffix) implies a shorter one it starts (ends) with; a regex only itself. */
    private static boolean narrower(Test k, Test t) {
        if (!(k.value() instanceof String kv) || !(t.value() instanceof String tv)) {
            return false;
        }
        return switch (t.operator()) {
            case "startsWith" -> kv.startsWith(tv);
            case "endsWith" -> kv.endsWith(tv);
            default -> kv.equals(tv);
        };
    }

    /** Whether {@code k} rules out the value {@code v}. */
    private static boolean excludes(Test k, Object v) {
        return switch (k.operator()) {
            case "==" -> !same(k.value(), v);
            case "in" -> !contains(k.values(), v);
            case "!=" -> same(k.value(), v);
            case "startsWith", "endsWith", "matches" -> v instanceof String && !text(k, v);
            case "<", "<=", ">", ">=" -> v instanceof BigDecimal n && !meets(n, k);
            default -> false;
        };
    }

    /** Numeric ranges: every number meeting {@code k} meets {@code t}. */
    private static boolean range(Test k, Test t) {
        if (!(t.value() instanceof BigDecimal tv)) {
            return false;
        }
        if (k.operator().equals("==") || k.operator().equals("in")) {
            return k.values().stream().allMatch(v -> v instanceof BigDecimal n && meets(n, t));
        }
        if (!(k.value() instanceof BigDecimal kv)) {
            return false;
        }
        int c = kv.compareTo(tv);
        String ko = k.operator();
        return switch (t.operator()) {
            case ">" -> ko.equals(">") && c >= 0 || ko.equals(">=") && c > 0;
            case ">=" -> (ko.equals(">") || ko.equals(">=")) && c >= 0;
            case "<" -> ko.equals("<") && c <= 0 || ko.equals("<=") && c < 0;
            case "<=" -> (ko.equals("<") || ko.equals("<=")) && c <= 0;
            default -> false;
        };
    }

    private static boolean meets(BigDecimal n, Test t) {
        if (!(t.value() instanceof BigDecimal v)) {
            return false;
        }
        int c = n.compareTo(v);
        return switch (t.operator()) {
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            case ">=" -> c >= 0;
            default -> false;
        };
    }

    private static boolean contains(List<Object> values, Object v) {
        return values.stream().anyMatch(x -> same(x, v));
    }

    private static boolean same(Object a, Object b) {
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return a != null && a.equals(b);
    }

    private static String simple(String type) {
        return type == null ? "" : type.substring(type.lastIndexOf('.') + 1);
    }

    private static String squash(String s) {
        StringBuilder out = new StringBuilder(s.length());
        s.chars().filter(c -> !Character.isWhitespace(c)).forEach(c -> out.append((char) c));
        return out.toString();
    }
}
