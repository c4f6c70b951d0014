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
        return implies(prepare(lower), prepare(higher), alwaysPresent);
    }

    /**
     * A rule's condition read once into what {@link #implies(Prepared, Prepared, Set)} compares, so
     * that a lint comparing every pair of a pack's rules reads each rule once, not once per pair.
     */
    public static Prepared prepare(RuleReading r) {
        return new Prepared(r.opaque(), r.patterns().stream().map(Implication::pattern).toList());
    }

    /** {@link #implies(RuleReading, RuleReading, Set)} over rules read by {@link #prepare}. */
    public static boolean implies(Prepared lower, Prepared higher, Set<String> alwaysPresent) {
        if (higher.opaque) {
            return false;
        }
        for (PreparedPattern a : higher.patterns) {
            if (!a.plain()) {
                return false;
            }
            if (a.conditions().isEmpty() && alwaysPresent.contains(a.type())) {
                continue;
            }
            boolean matched = false;
            for (PreparedPattern b : lower.patterns) {
                if (b.positive() && b.plain() && b.type().equals(a.type()) && covers(b, a)) {
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

    /** A rule as {@link #implies(Prepared, Prepared, Set)} reads it; opaque to other packages. */
    public static final class Prepared {
        private final boolean opaque;
        private final List<PreparedPattern> patterns;

        private Prepared(boolean opaque, List<PreparedPattern> patterns) {
            this.opaque = opaque;
            this.patterns = patterns;
        }
    }

    /**
     * A pattern: its fact type's simple name; whether it reads facts of its own (no {@code from});
     * every test its constraints make ({@code known}) and their texts without spaces.
     */
    record PreparedPattern(String type, boolean positive, boolean plain, List<PreparedCondition> conditions, List<Test> known,
                           List<com.github.javaparser.ast.expr.Expression> expressions) {
    }

    /**
     * A constraint: {@code names} a field without constraining it ({@code $agent : agent}); its
     * tests; its syntax tree, compared structurally (so {@code "a b"} and {@code "ab"} differ, as
     * they did not when the texts were compared with their white space squashed out).
     */
    record PreparedCondition(boolean names, List<Test> tests, com.github.javaparser.ast.expr.Expression expression,
                             boolean variable) {
    }

    private static PreparedPattern pattern(PatternReading p) {
        List<PreparedCondition> conditions = new ArrayList<>();
        List<Test> known = new ArrayList<>();
        List<com.github.javaparser.ast.expr.Expression> expressions = new ArrayList<>();
        for (Condition c : p.conditions()) {
            List<Test> tests = c.tests();
            known.addAll(tests);
            expressions.add(c.expression());
            conditions.add(new PreparedCondition(c.binding() != null && c.expression() instanceof com.github.javaparser.ast.expr.NameExpr,
                    tests, c.expression(), c.text().contains("$")));
        }
        return new PreparedPattern(simple(p.type()), p.positive(), p.source() == null && p.sourceText() == null,
                List.copyOf(conditions), List.copyOf(known), List.copyOf(expressions));
    }

    /** Every constraint of {@code a} holds for any fact that meets {@code b}'s. */
    private static boolean covers(PreparedPattern b, PreparedPattern a) {
        for (PreparedCondition c : a.conditions()) {
            if (c.names()) {
                continue; // "$agent : agent" names a field and constrains nothing
            }
            if (c.tests().isEmpty()) {
                if (c.variable() || b.expressions().stream().noneMatch(e -> e.equals(c.expression()))) {
                    return false;
                }
                continue;
            }
            for (Test t : c.tests()) {
                if (b.known().stream().noneMatch(k -> k.field().equals(t.field()) && implies(k, t))) {
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
                // RE2/J, as the rules match: String.matches backtracks, and forty ".*" in a row held the lint for minutes
                // A pattern over the size bound is refused at its own line; matching it here could only cost
                // (RE2/J's matcher recurses over the program: a 22,000-step one overflowed a worker's stack)
                default -> RegexSize.of(p).problem() == null && com.google.re2j.Pattern.matches(p, s);
            };
        } catch (PatternSyntaxException | com.google.re2j.PatternSyntaxException e) {
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
}
