package io.signalman.engine.explain;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.drools.mvel.parser.ast.expr.PointFreeExpr;

/**
 * DRL's word operators: {@code str[startsWith|endsWith|length]}, {@code matches},
 * {@code contains}, {@code memberOf}, {@code in}, each optionally negated with {@code not}.
 */
final class PointFree {

    private PointFree() {
    }

    static boolean eval(PointFreeExpr p, Object left, List<Object> right) throws Unevaluable {
        String op = p.getOperator().asString();
        String arg = p.getArg1() == null ? "" : Evaluator.text(p.getArg1());
        int bracket = op.indexOf('[');
        if (bracket > 0 && op.endsWith("]")) {
            // DRLX may keep the argument in the operator's name: str[startsWith]
            arg = op.substring(bracket + 1, op.length() - 1);
            op = op.substring(0, bracket);
        }
        boolean result = switch (op) {
            case "str" -> str(arg, left, single(p, right));
            // RE2/J, as the compiled rules match (rulelang/LinearPattern): String.matches backtracks, and forty
            // ".*" in a row took explain, the scenarios and the gate days on a fourteen-character subtype.
            case "matches" -> left != null && single(p, right) != null
                    && com.google.re2j.Pattern.matches(single(p, right).toString(), left.toString());
            case "contains" -> contains(left, single(p, right));
            case "memberOf" -> contains(single(p, right), left);
            case "in" -> right.stream().anyMatch(r -> Values.same(left, r));
            default -> throw new Unevaluable("explain does not evaluate the operator \"" + op + "\" in " + Evaluator.text(p));
        };
        return p.isNegated() != result;
    }

    private static boolean str(String how, Object left, Object right) throws Unevaluable {
        if (left == null || right == null) {
            return false;
        }
        String s = left.toString();
        return switch (how) {
            case "startsWith" -> s.startsWith(right.toString());
            case "endsWith" -> s.endsWith(right.toString());
            case "length" -> right instanceof Number n && s.length() == n.intValue();
            default -> throw new Unevaluable("explain does not evaluate str[" + how + "]");
        };
    }

    private static boolean contains(Object container, Object item) throws Unevaluable {
        if (container == null) {
            return false;
        }
        if (container instanceof Collection<?> c) {
            return c.stream().anyMatch(x -> Values.same(x, item));
        }
        if (container instanceof Map<?, ?> m) {
            return m.containsKey(item);
        }
        if (container instanceof String s) {
            return item != null && s.contains(item.toString());
        }
        if (container instanceof Object[] a) {
            return java.util.Arrays.stream(a).anyMatch(x -> Values.same(x, item));
        }
        throw new Unevaluable("contains needs a list, a map or a text, not " + Values.show(container));
    }

    private static Object single(PointFreeExpr p, List<Object> right) throws Unevaluable {
        if (right.size() != 1) {
            throw new Unevaluable(Evaluator.text(p) + " compares with " + right.size() + " values");
        }
        return right.get(0);
    }
}
