package io.signalman.engine;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.ExprConstraintDescr;
import org.drools.drl.ast.descr.PatternDescr;

/**
 * A guard must not pass on a missing field by accident. The payload accessors read
 * a missing or mistyped field as null, so {@code text("task") == "deploy"} and
 * {@code number("quality") >= 0.7} are false without the field, as an analyst means; but
 * {@code text("task") != ""} is true without it (null is not ""), which is exactly what an analyst
 * writes for "a task is given". Such a comparison is refused at its line, with the fix:
 * {@code has("task")} in the same pattern, which the lint then accepts. Constraints are read with
 * Drools' parser (the pattern's constraints) and JavaParser (each constraint's expression); a
 * constraint in DRL-only syntax ({@code str[startsWith]}, {@code matches}) is not one of these.
 */
final class MissingFieldLint {

    private static final List<String> ACCESSORS = List.of("text", "number");

    private MissingFieldLint() {
    }

    static void check(List<ParsedRule> rules, List<BundleError> errors) {
        for (ParsedRule r : rules) {
            if (r.descr().getLhs() != null) {
                walk(r, r.descr().getLhs(), errors);
            }
        }
    }

    private static void walk(ParsedRule r, BaseDescr d, List<BundleError> errors) {
        if (d instanceof PatternDescr p) {
            pattern(r, p, errors);
            if (p.getSource() != null) {
                walk(r, p.getSource(), errors);
            }
        } else if (d instanceof ConditionalElementDescr ce) {
            for (BaseDescr child : ce.getDescrs()) {
                walk(r, child, errors);
            }
        }
    }

    private static void pattern(ParsedRule r, PatternDescr p, List<BundleError> errors) {
        List<ExprConstraintDescr> constraints = new ArrayList<>();
        for (BaseDescr c : p.getConstraint().getDescrs()) {
            if (c instanceof ExprConstraintDescr e) {
                constraints.add(e);
            }
        }
        List<String> guarded = new ArrayList<>();
        List<Expression> parsed = new ArrayList<>();
        for (ExprConstraintDescr c : constraints) {
            Expression e = parse(c.getExpression()).orElse(null);
            parsed.add(e);
            if (e != null) {
                e.findAll(MethodCallExpr.class).stream().filter(m -> m.getNameAsString().equals("has") && m.getScope().isEmpty())
                        .map(MissingFieldLint::field).flatMap(Optional::stream).forEach(guarded::add);
                e.findAll(BinaryExpr.class).stream().filter(b -> b.getOperator() == BinaryExpr.Operator.NOT_EQUALS)
                        .filter(b -> b.getLeft().isNullLiteralExpr() || b.getRight().isNullLiteralExpr())
                        .forEach(b -> accessor(b.getLeft().isNullLiteralExpr() ? b.getRight() : b.getLeft())
                                .ifPresent(guarded::add));
            }
        }
        for (int i = 0; i < constraints.size(); i++) {
            Expression e = parsed.get(i);
            if (e == null) {
                continue;
            }
            ExprConstraintDescr c = constraints.get(i);
            for (BinaryExpr b : e.findAll(BinaryExpr.class)) {
                if (b.getOperator() != BinaryExpr.Operator.NOT_EQUALS || b.getLeft().isNullLiteralExpr()
                        || b.getRight().isNullLiteralExpr()) {
                    continue;
                }
                Optional<String> field = accessor(b.getLeft()).or(() -> accessor(b.getRight()));
                if (field.isPresent() && !guarded.contains(field.get())) {
                    int line = c.getLine() > 0 ? c.getLine() : p.getLine() > 0 ? p.getLine() : r.info().line();
                    String f = field.get();
                    errors.add(new BundleError(r.info().file(), line, c.getColumn() > 0 ? c.getColumn() : 0, "rule \""
                            + r.info().name() + "\": " + b + " also holds when the payload has no \"" + f
                            + "\" (a missing field reads as null, and null is not equal to anything); write has(\"" + f
                            + "\"), " + b + " so that a missing field fails the guard"));
                }
            }
        }
    }

    /** The field of {@code text("f")} or {@code number("f")} (no scope: the fact's own payload). */
    private static Optional<String> accessor(Expression e) {
        Expression x = e.isEnclosedExpr() ? e.asEnclosedExpr().getInner() : e;
        if (!x.isMethodCallExpr()) {
            return Optional.empty();
        }
        MethodCallExpr m = x.asMethodCallExpr();
        return m.getScope().isEmpty() && ACCESSORS.contains(m.getNameAsString()) ? field(m) : Optional.empty();
    }

    private static Optional<String> field(MethodCallExpr m) {
        return m.getArguments().size() == 1 && m.getArgument(0) instanceof StringLiteralExpr s
                ? Optional.of(s.asString()) : Optional.empty();
    }

    private static Optional<Expression> parse(String expression) {
        if (expression == null) {
            return Optional.empty();
        }
        var result = new JavaParser().parseExpression(expression);
        return result.isSuccessful() ? result.getResult() : Optional.empty();
    }
}
