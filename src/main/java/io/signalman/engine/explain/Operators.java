package io.signalman.engine.explain;

import com.github.javaparser.ast.expr.BinaryExpr;
import java.math.BigDecimal;
import java.math.MathContext;

/** DRL's binary operators over evaluated values: comparison, equality and arithmetic. */
final class Operators {

    private Operators() {
    }

    static Object apply(BinaryExpr.Operator op, Object a, Object b, String text) throws Unevaluable {
        return switch (op) {
            case EQUALS -> Values.same(a, b);
            case NOT_EQUALS -> !Values.same(a, b);
            case LESS -> ordered(a, b, c -> c < 0);
            case LESS_EQUALS -> ordered(a, b, c -> c <= 0);
            case GREATER -> ordered(a, b, c -> c > 0);
            case GREATER_EQUALS -> ordered(a, b, c -> c >= 0);
            case PLUS -> a instanceof String || b instanceof String ? String.valueOf(a) + b : arithmetic(op, a, b, text);
            case MINUS, MULTIPLY, DIVIDE, REMAINDER -> arithmetic(op, a, b, text);
            default -> throw new Unevaluable("explain does not evaluate the operator " + op.asString() + " in " + text);
        };
    }

    /** Drools treats a comparison with null as false rather than failing. */
    private static boolean ordered(Object a, Object b, java.util.function.IntPredicate test) throws Unevaluable {
        Integer c = Values.compare(a, b);
        return c != null && test.test(c);
    }

    private static Object arithmetic(BinaryExpr.Operator op, Object a, Object b, String text) throws Unevaluable {
        if (!(a instanceof Number x) || !(b instanceof Number y)) {
            throw new Unevaluable(text + " needs two numbers");
        }
        BigDecimal l = Values.decimal(x);
        BigDecimal r = Values.decimal(y);
        return switch (op) {
            case MINUS -> l.subtract(r);
            case MULTIPLY -> l.multiply(r);
            case DIVIDE -> {
                if (r.signum() == 0) {
                    throw new Unevaluable(text + " divides by zero");
                }
                yield l.divide(r, MathContext.DECIMAL64);
            }
            case REMAINDER -> l.remainder(r);
            default -> l.add(r);
        };
    }
}
