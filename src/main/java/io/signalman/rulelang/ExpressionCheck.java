package io.signalman.rulelang;

import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CharLiteralExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
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
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.drools.mvel.parser.ast.expr.BigDecimalLiteralExpr;
import org.drools.mvel.parser.ast.expr.BigIntegerLiteralExpr;
import org.drools.mvel.parser.ast.expr.DrlxExpression;
import org.drools.mvel.parser.ast.expr.HalfBinaryExpr;
import org.drools.mvel.parser.ast.expr.HalfPointFreeExpr;
import org.drools.mvel.parser.ast.expr.NullSafeFieldAccessExpr;
import org.drools.mvel.parser.ast.expr.NullSafeMethodCallExpr;
import org.drools.mvel.parser.ast.expr.PointFreeExpr;

/**
 * Checks one expression of a rule (a constraint, a {@code from} source, an argument of a
 * decision) against the rule language: literals, operators, the rule's bindings, and the fields
 * and tests of the pack's facts. Anything else (a Java class, {@code new}, an assignment, a
 * method facts do not publish) is a finding in the analyst's words, with the names that exist.
 *
 * <p>Types are followed as far as the facts go: a field of a fact has the field's type, so
 * {@code $m.subtype} is text and {@code $org.managerOf(...)} is checked against OrgChart; values
 * that are not facts (text, numbers, lists, maps) offer only {@link Vocabulary#valueMethods} of
 * their own type, and a value whose type cannot be told offers nothing (fail closed).
 */
final class ExpressionCheck {

    /** The type of an expression the check accepted but cannot name (a value). */
    static final Class<?> VALUE = Object.class;

    private static final List<String> OPERATORS = List.of("str[startsWith]", "str[endsWith]", "str[length]", "in", "matches",
            "memberOf", "contains", "excludes", "soundslike");

    private final Vocabulary vocabulary;
    private final Map<String, Class<?>> names;
    private final Class<?> self;
    private final List<Finding> findings;
    private final int line;
    private final int column;

    /**
     * @param names the rule's bindings (and a consequence's locals) visible here, with their types
     * @param self  the fact of the pattern a constraint belongs to, or null outside a pattern
     */
    ExpressionCheck(Vocabulary vocabulary, Map<String, Class<?>> names, Class<?> self, List<Finding> findings, int line,
                    int column) {
        this.vocabulary = vocabulary;
        this.names = names;
        this.self = self;
        this.findings = findings;
        this.line = line;
        this.column = column;
    }

    /** The expression's type; null when it broke a rule of the language (a finding was added). */
    Class<?> check(Expression e) {
        if (e instanceof StringLiteralExpr || e instanceof TextBlockLiteralExpr || e instanceof CharLiteralExpr) {
            return String.class;
        }
        if (e instanceof IntegerLiteralExpr || e instanceof LongLiteralExpr || e instanceof DoubleLiteralExpr
                || e instanceof BigDecimalLiteralExpr || e instanceof BigIntegerLiteralExpr) {
            return BigDecimal.class;
        }
        if (e instanceof BooleanLiteralExpr) {
            return boolean.class;
        }
        if (e instanceof NullLiteralExpr) {
            return VALUE;
        }
        if (e instanceof EnclosedExpr en) {
            return check(en.getInner());
        }
        if (e instanceof DrlxExpression d) {
            Class<?> type = check(d.getExpr());
            if (d.getBind() != null && type != null) {
                names.put(d.getBind().asString(), type);
            }
            return type;
        }
        if (e instanceof UnaryExpr u) {
            if (u.getOperator().isPrefix() && u.getOperator() != UnaryExpr.Operator.PREFIX_INCREMENT
                    && u.getOperator() != UnaryExpr.Operator.PREFIX_DECREMENT) {
                return check(u.getExpression());
            }
            return refuse("changes a value with " + u.getOperator().asString() + "; a rule only reads its facts");
        }
        if (e instanceof BinaryExpr b) {
            Class<?> l = check(b.getLeft());
            Class<?> r = check(b.getRight());
            return l == null || r == null ? null : VALUE;
        }
        if (e instanceof ConditionalExpr c) {
            Class<?> a = check(c.getCondition());
            Class<?> t = check(c.getThenExpr());
            Class<?> f = check(c.getElseExpr());
            return a == null || t == null || f == null ? null : VALUE;
        }
        if (e instanceof HalfBinaryExpr h) {
            return check(h.getRight());
        }
        if (e instanceof HalfPointFreeExpr h) {
            return operator(h.getOperator().asString(), h.getRight()) ? all(h.getRight()) : null;
        }
        if (e instanceof PointFreeExpr p) {
            if (!operator(p.getOperator().asString(), p.getRight())) {
                return null;
            }
            Class<?> l = check(p.getLeft());
            return l == null || all(p.getRight()) == null ? null : boolean.class;
        }
        if (e instanceof NameExpr n) {
            return name(n.getNameAsString());
        }
        if (e instanceof FieldAccessExpr f) {
            return field(f.getScope(), f.getNameAsString());
        }
        if (e instanceof NullSafeFieldAccessExpr f) {
            return field(f.getScope(), f.getNameAsString());
        }
        if (e instanceof MethodCallExpr m) {
            return call(m.getScope().orElse(null), m.getNameAsString(), m.getArguments());
        }
        if (e instanceof NullSafeMethodCallExpr m) {
            return call(m.getScope().orElse(null), m.getNameAsString(), m.getArguments());
        }
        return refuse(Words.kind(e) + " is not part of the rule language; " + Words.WHAT_RULES_MAY_DO);
    }

    private Class<?> all(List<Expression> es) {
        boolean ok = true;
        for (Expression x : es) {
            ok &= check(x) != null;
        }
        return ok ? VALUE : null;
    }

    private boolean operator(String op, List<Expression> right) {
        if (op.equals("matches")) {
            return pattern(right);
        }
        if (OPERATORS.contains(op)) {
            return true;
        }
        refuse("the operator \"" + op + "\" is not part of the rule language; use ==, !=, <, <=, >, >=, in, matches, "
                + "str[startsWith], str[endsWith], contains, memberOf");
        return false;
    }

    /**
     * The right side of {@code matches}: one pattern written as text, which RE2 accepts. Rules
     * match with RE2/J, in time linear in the text matched, so a pattern cannot stall a worker
     * however it is written; what RE2 cannot run in linear time (back-references, look-around)
     * is refused here rather than at the first message.
     */
    private boolean pattern(List<Expression> right) {
        if (right.size() != 1 || !(right.get(0) instanceof StringLiteralExpr text)) {
            refuse("matches takes one pattern written as text in double quotes (subtype matches \"trade\\..*\")");
            return false;
        }
        String problem = LinearPattern.problem(text.asString());
        if (problem == null) {
            problem = RegexSize.of(text.asString()).problem();
        }
        if (problem != null) {
            refuse("the pattern \"" + text.getValue() + "\" cannot be used: " + problem);
            return false;
        }
        return true;
    }

    private Class<?> name(String name) {
        Class<?> bound = names.get(name);
        if (bound != null) {
            return bound;
        }
        if (self != null) {
            Map<String, Class<?>> fields = Vocabulary.fields(self);
            Class<?> type = fields.get(name);
            if (type != null) {
                return type;
            }
            if (!looksLikeClass(name)) {
                return refuse(self.getSimpleName() + " has no field \"" + name + "\"" + Suggest.hint(name, fields.keySet(), "Its fields"));
            }
        }
        if (looksLikeClass(name) || name.contains(".")) {
            return refuse(Words.outside(name) + "; " + Words.WHAT_RULES_MAY_DO);
        }
        return refuse("\"" + name + "\" is not bound in this rule's conditions" + Suggest.hint(name, names.keySet(), "Bound here"));
    }

    private Class<?> field(Expression scope, String name) {
        if (scope instanceof NameExpr n && unknown(n.getNameAsString())) {
            return outside(n.getNameAsString(), n.getNameAsString() + "." + name);
        }
        Class<?> type = check(scope);
        if (type == null) {
            return null;
        }
        if (vocabulary.isFact(type)) {
            Map<String, Class<?>> fields = Vocabulary.fields(type);
            Class<?> f = fields.get(name);
            return f != null ? f : refuse(type.getSimpleName() + " has no field \"" + name + "\""
                    + Suggest.hint(name, fields.keySet(), "Its fields"));
        }
        return refuse("\"" + name + "\" cannot be read from a " + Vocabulary.describe(type) + "; only facts have fields");
    }

    private Class<?> call(Expression scope, String method, List<Expression> args) {
        Class<?> target;
        if (scope == null) {
            if (self == null) {
                return refuse("calls " + method + "(...), which is not part of the rule language; " + Words.WHAT_RULES_MAY_DO);
            }
            target = self;
        } else {
            if (scope instanceof NameExpr n && unknown(n.getNameAsString())) {
                return outside(n.getNameAsString(), n.getNameAsString() + "." + method + "(...)");
            }
            target = check(scope);
            if (target == null) {
                return null;
            }
        }
        if (all(args) == null) {
            return null;
        }
        if (target == vocabulary.decideType()) {
            return refuse("calls decide." + method + "(...) inside a condition; conditions only read facts");
        }
        if (vocabulary.isFact(target)) {
            Map<String, Method> tests = Vocabulary.tests(target);
            Method m = tests.get(method);
            if (m == null) {
                return refuse(target.getSimpleName() + " has no test \"" + method + "\"" + Words.offers(method, target));
            }
            return m.getReturnType();
        }
        Class<?> result = Vocabulary.valueMethodType(target, method);
        if (result != null) {
            return result;
        }
        java.util.Set<String> offered = Vocabulary.valueMethods(target);
        if (offered.isEmpty()) {
            return refuse("\"" + method + "\" cannot be used here: it is called on " + (target == VALUE ? "a value whose kind "
                    + "the rule checker cannot tell" : "a " + Vocabulary.describe(target)) + ", which offers nothing to a rule; "
                    + "compare it instead, or call a fact's test");
        }
        return refuse("\"" + method + "\" cannot be used on a " + Vocabulary.describe(target) + Suggest.didYouMean(method, offered)
                + (Suggest.nearest(method, offered).isPresent() ? " " : ". ") + "A " + Vocabulary.describe(target) + " offers "
                + String.join(", ", offered));
    }

    /** Neither a binding nor a field of the pattern's fact: a Java class or package, or a typo. */
    private boolean unknown(String name) {
        return !names.containsKey(name) && !(self != null && Vocabulary.fields(self).containsKey(name));
    }

    /** A name outside the rule: a typo of a field when inside a pattern, otherwise Java the rule cannot reach. */
    private Class<?> outside(String name, String written) {
        if (self != null && !looksLikeClass(name)) {
            return name(name);
        }
        return refuse(Words.outside(written) + "; " + Words.WHAT_RULES_MAY_DO);
    }

    private static boolean looksLikeClass(String name) {
        return !name.isEmpty() && Character.isUpperCase(name.charAt(0));
    }

    private Class<?> refuse(String message) {
        findings.add(new Finding(line, column, message));
        return null;
    }
}
