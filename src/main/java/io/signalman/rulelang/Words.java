package io.signalman.rulelang;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.ArrayCreationExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.InstanceOfExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SwitchExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.SwitchStmt;
import com.github.javaparser.ast.stmt.SynchronizedStmt;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import java.util.List;

/** The rule language's refusals, in an analyst's words rather than Java's. */
final class Words {

    static final String WHAT_RULES_MAY_DO = "a condition compares its facts' fields with values, and a consequence "
            + "calls decide (see rules/README.md, \"What a rule may say\")";

    private Words() {
    }

    /** {@code . It offers: mayPublish(text); its fields: id, role} for a fact. */
    static String offers(String name, Class<?> fact) {
        java.util.Set<String> fields = Vocabulary.fields(fact).keySet();
        List<String> tests = Vocabulary.tests(fact).values().stream()
                .filter(m -> m.getParameterCount() > 0 || !fields.contains(m.getName()) && !fields.contains(String.valueOf(Vocabulary.fieldOf(m))))
                .map(Vocabulary::signature).toList();
        java.util.Set<String> names = new java.util.TreeSet<>(Vocabulary.tests(fact).keySet());
        names.addAll(fields);
        String hint = Suggest.didYouMean(name, names);
        return hint + (hint.isEmpty() ? ". " : " ") + "It offers " + (tests.isEmpty() ? "no tests" : String.join(", ", tests))
                + "; its fields: " + String.join(", ", fields);
    }

    /** A name that reaches outside the rule: a Java class, a package, the system. */
    static String outside(String written) {
        return "\"" + written + "\" reaches outside the rule: rules cannot use Java classes, the system, files, threads "
                + "or the network";
    }

    /** What a piece of Java is, for "... is not part of the rule language". */
    static String kind(Node n) {
        if (n instanceof ObjectCreationExpr o) {
            return "creating an object (new " + o.getTypeAsString() + ")";
        }
        if (n instanceof ArrayCreationExpr) {
            return "creating an array (new ...[])";
        }
        if (n instanceof AssignExpr a) {
            return "assigning to " + a.getTarget();
        }
        if (n instanceof LambdaExpr || n instanceof MethodReferenceExpr) {
            return "a function value (->, ::)";
        }
        if (n instanceof ClassExpr || n instanceof InstanceOfExpr) {
            return "inspecting a class (.class, instanceof)";
        }
        if (n instanceof CastExpr) {
            return "a cast";
        }
        if (n instanceof ThisExpr) {
            return "\"this\"";
        }
        if (n instanceof SwitchExpr || n instanceof SwitchStmt) {
            return "a switch";
        }
        if (n instanceof WhileStmt || n instanceof ForStmt || n instanceof ForEachStmt || n instanceof DoStmt) {
            return "a loop";
        }
        if (n instanceof IfStmt) {
            return "an if in a consequence (put the test in the conditions)";
        }
        if (n instanceof TryStmt || n instanceof ThrowStmt) {
            return "exception handling";
        }
        if (n instanceof SynchronizedStmt) {
            return "thread locking";
        }
        String simple = n.getClass().getSimpleName();
        return "this kind of code (" + simple.replace("Expr", " expression").replace("Stmt", " statement").toLowerCase() + ")";
    }
}
