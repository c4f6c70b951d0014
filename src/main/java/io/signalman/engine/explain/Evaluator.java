package io.signalman.engine.explain;

import com.github.javaparser.ast.DataKey;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.DoubleLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.drools.mvel.parser.ast.expr.BigDecimalLiteralExpr;
import org.drools.mvel.parser.ast.expr.BigIntegerLiteralExpr;
import org.drools.mvel.parser.ast.expr.DrlxExpression;
import org.drools.mvel.parser.ast.expr.HalfBinaryExpr;
import org.drools.mvel.parser.ast.expr.PointFreeExpr;
import org.drools.mvel.parser.printer.PrintUtil;

/**
 * Evaluates one DRL constraint, parsed by Drools' own DRLX parser, against the fact its pattern
 * looks at, and records every value it read on the way ({@code priority} is {@code "high"}), so a
 * failed constraint can say what it saw. The shapes analysts write are covered (comparisons,
 * {@code &&}/{@code ||}, {@code str[startsWith]}, {@code matches}, {@code in}, {@code contains},
 * {@code memberOf}, property paths and method calls on facts); anything else is
 * {@link Unevaluable}, never a guess.
 */
public final class Evaluator {

    private final Object self;
    private final Map<String, Object> bindings;
    private final Map<String, Object> seen = new LinkedHashMap<>();

    /**
     * @param self     the fact the pattern looks at (null for a {@code from} source)
     * @param bindings values bound by earlier patterns and constraints ({@code $m})
     */
    public Evaluator(Object self, Map<String, Object> bindings) {
        this.self = self;
        this.bindings = bindings;
    }

    /** Every property, path and call the evaluation read, by its text, in reading order. */
    public Map<String, Object> seen() {
        return seen;
    }

    public Object eval(Expression e) throws Unevaluable {
        if (e instanceof DrlxExpression d) {
            Object v = eval(d.getExpr());
            if (d.getBind() != null) {
                bindings.put(d.getBind().asString(), v);
            }
            return v;
        } else if (e instanceof EnclosedExpr en) {
            return eval(en.getInner());
        } else if (e instanceof StringLiteralExpr s) {
            return once(s, LITERAL, s::asString);
        } else if (e instanceof TextBlockLiteralExpr t) {
            return t.asString();
        } else if (e instanceof CharLiteralExpr c) {
            return c.getValue();
        } else if (e instanceof BigDecimalLiteralExpr b) {
            return new BigDecimal(b.getValue().replaceAll("[bB]$", ""));
        } else if (e instanceof BigIntegerLiteralExpr b) {
            return new BigInteger(b.getValue().replaceAll("[iI]$", ""));
        } else if (e instanceof IntegerLiteralExpr i) {
            return i.asNumber();
        } else if (e instanceof LongLiteralExpr l) {
            return l.asNumber();
        } else if (e instanceof DoubleLiteralExpr d) {
            return d.asDouble();
        } else if (e instanceof BooleanLiteralExpr b) {
            return b.getValue();
        } else if (e instanceof NullLiteralExpr) {
            return null;
        } else if (e instanceof NameExpr n) {
            return name(n.getNameAsString());
        } else if (e instanceof FieldAccessExpr f) {
            return record(e, Properties.read(eval(f.getScope()), f.getNameAsString()));
        } else if (e instanceof MethodCallExpr m) {
            return call(m);
        } else if (e instanceof UnaryExpr u) {
            return unary(u);
        } else if (e instanceof BinaryExpr b) {
            return binary(b);
        } else if (e instanceof PointFreeExpr p) {
            return PointFree.eval(p, eval(p.getLeft()), args(p.getRight()));
        }
        throw new Unevaluable("explain does not evaluate " + e.getClass().getSimpleName().replace("Expr", "")
                + " expressions such as " + text(e));
    }

    private Object name(String name) throws Unevaluable {
        if (bindings.containsKey(name)) {
            return bindings.get(name);
        }
        if (name.startsWith("$")) {
            throw new Unevaluable(name + " is not bound by an earlier pattern");
        }
        if (self == null) {
            throw new Unevaluable("\"" + name + "\" names no binding");
        }
        Object v = Properties.read(self, name);
        seen.put(name, v);
        return v;
    }

    private Object call(MethodCallExpr m) throws Unevaluable {
        Object target = m.getScope().isPresent() ? eval(m.getScope().get()) : self;
        return record(m, Properties.call(target, m.getNameAsString(), args(m.getArguments())));
    }

    private List<Object> args(List<Expression> exprs) throws Unevaluable {
        List<Object> out = new ArrayList<>(exprs.size());
        for (Expression a : exprs) {
            out.add(eval(a));
        }
        return out;
    }

    private Object record(Expression e, Object v) {
        seen.put(text(e), v);
        return v;
    }

    private Object unary(UnaryExpr u) throws Unevaluable {
        Object v = eval(u.getExpression());
        return switch (u.getOperator()) {
            case LOGICAL_COMPLEMENT -> !Values.truth(v, text(u.getExpression()));
            case MINUS -> v instanceof Number n ? Values.decimal(n).negate() : fail(u);
            case PLUS -> v;
            default -> fail(u);
        };
    }

    private Object binary(BinaryExpr b) throws Unevaluable {
        BinaryExpr.Operator op = b.getOperator();
        if (op == BinaryExpr.Operator.AND || op == BinaryExpr.Operator.OR) {
            boolean left = Values.truth(eval(b.getLeft()), text(b.getLeft()));
            if (op == BinaryExpr.Operator.AND ? !left : left) {
                return left;
            }
            return Values.truth(b.getRight() instanceof HalfBinaryExpr h ? half(leftmost(b.getLeft()), h)
                    : eval(b.getRight()), text(b.getRight()));
        }
        return Operators.apply(op, eval(b.getLeft()), eval(b.getRight()), text(b));
    }

    /** {@code age > 18 && < 65}: the right half compares the left half's operand. */
    private Object half(Expression operand, HalfBinaryExpr h) throws Unevaluable {
        BinaryExpr.Operator op = BinaryExpr.Operator.valueOf(h.getOperator().name());
        return Operators.apply(op, eval(operand), eval(h.getRight()), text(h));
    }

    private static Expression leftmost(Expression e) throws Unevaluable {
        Expression at = e;
        while (at instanceof BinaryExpr b && (b.getOperator() == BinaryExpr.Operator.AND
                || b.getOperator() == BinaryExpr.Operator.OR)) {
            at = b.getLeft();
        }
        if (at instanceof BinaryExpr b) {
            return b.getLeft();
        }
        throw new Unevaluable("cannot tell what " + text(e) + " compares");
    }

    private static Object fail(Expression e) throws Unevaluable {
        throw new Unevaluable("explain does not evaluate " + text(e));
    }

    /**
     * The expression as written (Drools' printer knows its own DRL nodes; JavaParser's does not).
     *
     * <p>NOTE(perf): printing a node costs microseconds (JavaParser's printer builds its
     * configuration each time) and explain names every value it reads by its text, so an explain
     * spent most of its time here (JFR). A rule's parsed conditions live as long as its bundle, so
     * each node keeps its text in its own data, computed once; the lock is the node's, and only
     * {@link #once} touches that data.
     */
    public static String text(Expression e) {
        return once(e, TEXT, () -> PrintUtil.printNode(e));
    }

    /** What {@code node} keeps under {@code key}, computed at its first use (see {@link #text}). */
    private static <T> T once(Expression node, DataKey<T> key, java.util.function.Supplier<T> compute) {
        synchronized (node) {
            if (node.containsData(key)) {
                return node.getData(key);
            }
            T value = compute.get();
            node.setData(key, value);
            return value;
        }
    }

    private static final DataKey<String> TEXT = new DataKey<>() {
    };
    /** A string literal's value (unescaping it is most of what reading one costs). */
    private static final DataKey<String> LITERAL = new DataKey<>() {
    };
}
