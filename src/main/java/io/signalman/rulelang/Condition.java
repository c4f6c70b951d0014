package io.signalman.rulelang;

import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.DoubleLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.drools.mvel.parser.ast.expr.BigDecimalLiteralExpr;
import org.drools.mvel.parser.ast.expr.BigIntegerLiteralExpr;
import org.drools.mvel.parser.ast.expr.DrlNameExpr;
import org.drools.mvel.parser.ast.expr.PointFreeExpr;

/**
 * One constraint of a pattern, parsed by Drools' own expression parser (the one the executable
 * model compiles it with), for the platform's checks and for explanations.
 *
 * @param text       the constraint as written
 * @param expression its parse (JavaParser nodes, with Drools' own for {@code str[...]}, {@code in}...)
 * @param binding    the {@code $name} it binds ({@code $agent : agent}), or null
 */
public record Condition(String text, Expression expression, String binding, int line, int column) {

    /**
     * The constraint as tests in the shapes analysts write, all of which must hold; empty when it
     * is of another shape (it compares two facts, calls a method with a variable...).
     */
    public List<Test> tests() {
        List<Test> out = new ArrayList<>();
        return binding == null && collect(expression, out) ? out : List.of();
    }

    private static boolean collect(Expression e, List<Test> out) {
        if (e instanceof EnclosedExpr en) {
            return collect(en.getInner(), out);
        }
        if (e instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.AND) {
            return collect(b.getLeft(), out) && collect(b.getRight(), out);
        }
        Optional<Test> t = single(e);
        t.ifPresent(out::add);
        return t.isPresent();
    }

    private static Optional<Test> single(Expression e) {
        if (e instanceof EnclosedExpr en) {
            return single(en.getInner());
        }
        if (e instanceof BinaryExpr b) {
            return binary(b);
        }
        if (e instanceof PointFreeExpr p && !p.isNegated()) {
            String field = field(p.getLeft());
            String op = p.getOperator().asString();
            List<Object> values = new ArrayList<>();
            for (Expression r : p.getRight()) {
                Object v = literal(r);
                if (v == null) {
                    return Optional.empty();
                }
                values.add(v);
            }
            String shape = switch (op) {
                case "str[startsWith]" -> "startsWith";
                case "str[endsWith]" -> "endsWith";
                case "in", "matches" -> op;
                default -> null;
            };
            return field == null || shape == null || values.isEmpty() ? Optional.empty()
                    : Optional.of(new Test(field, shape, values));
        }
        if (e instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.LOGICAL_COMPLEMENT) {
            String field = field(u.getExpression());
            return field == null ? Optional.empty() : Optional.of(new Test(field, "==", List.of(Boolean.FALSE)));
        }
        String field = field(e);
        return field == null ? Optional.empty() : Optional.of(new Test(field, "==", List.of(Boolean.TRUE)));
    }

    private static Optional<Test> binary(BinaryExpr b) {
        if (b.getOperator() == BinaryExpr.Operator.OR) {
            Optional<Test> l = single(b.getLeft());
            Optional<Test> r = single(b.getRight());
            if (l.isPresent() && r.isPresent() && l.get().field().equals(r.get().field())
                    && List.of("==", "in").contains(l.get().operator()) && List.of("==", "in").contains(r.get().operator())) {
                List<Object> values = new ArrayList<>(l.get().values());
                values.addAll(r.get().values());
                return Optional.of(new Test(l.get().field(), "in", values));
            }
            return Optional.empty();
        }
        String op = switch (b.getOperator()) {
            case EQUALS -> "==";
            case NOT_EQUALS -> "!=";
            case LESS -> "<";
            case LESS_EQUALS -> "<=";
            case GREATER -> ">";
            case GREATER_EQUALS -> ">=";
            default -> null;
        };
        String field = field(b.getLeft());
        Object value = literal(b.getRight());
        return op == null || field == null || value == null ? Optional.empty() : Optional.of(new Test(field, op, List.of(value)));
    }

    /** A field of the pattern's fact as written, or null for anything else (a $binding, a call with a variable). */
    static String field(Expression e) {
        if (e instanceof DrlNameExpr n) {
            return n.getNameAsString().startsWith("$") || n.getBackReferencesCount() > 0 ? null : n.getNameAsString();
        }
        if (e instanceof NameExpr n) {
            return n.getNameAsString().startsWith("$") ? null : n.getNameAsString();
        }
        if (e instanceof FieldAccessExpr f) {
            String scope = field(f.getScope());
            return scope == null ? null : scope + "." + f.getNameAsString();
        }
        if (e instanceof MethodCallExpr m) {
            String scope = m.getScope().map(Condition::field).orElse("");
            if (scope == null) {
                return null;
            }
            StringBuilder s = new StringBuilder(scope.isEmpty() ? "" : scope + ".").append(m.getNameAsString()).append('(');
            for (int i = 0; i < m.getArguments().size(); i++) {
                Object v = literal(m.getArguments().get(i));
                if (v == null) {
                    return null;
                }
                s.append(i == 0 ? "" : ", ").append(v instanceof String str ? "\"" + str + "\"" : v);
            }
            return s.append(')').toString();
        }
        return null;
    }

    /** A literal's value: text, a number as BigDecimal, yes/no; null for anything else. */
    static Object literal(Expression e) {
        if (e instanceof StringLiteralExpr s) {
            return s.asString();
        }
        if (e instanceof BooleanLiteralExpr b) {
            return b.getValue();
        }
        if (e instanceof UnaryExpr u && u.getOperator() == UnaryExpr.Operator.MINUS && literal(u.getExpression()) instanceof BigDecimal d) {
            return d.negate();
        }
        try {
            if (e instanceof IntegerLiteralExpr || e instanceof LongLiteralExpr || e instanceof DoubleLiteralExpr
                    || e instanceof BigDecimalLiteralExpr || e instanceof BigIntegerLiteralExpr) {
                String t = ((com.github.javaparser.ast.expr.LiteralStringValueExpr) e).getValue().replace("_", "");
                char last = Character.toLowerCase(t.charAt(t.length() - 1));
                if (last == 'l' || last == 'd' || last == 'f' || last == 'b' || last == 'i') {
                    t = t.substring(0, t.length() - 1);
                }
                return new BigDecimal(t);
            }
        } catch (NumberFormatException | ClassCastException ex) {
            return null;
        }
        return null;
    }
}
