package io.signalman.engine.explain;

import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.NameExpr;
import io.signalman.rulelang.Condition;
import io.signalman.rulelang.PatternReading;
import io.signalman.rulelang.RuleReading;
import java.util.ArrayList;
import java.util.List;

/**
 * A rule's conditions as the shared rule reader ({@link RuleReading}: Drools' DRL parser for the
 * patterns, its DRLX expression parser for each constraint) read them, in the shape explain
 * evaluates: patterns in order, each with its top-level constraints. What explain does not
 * evaluate is kept with the reason, so explain can say so instead of guessing.
 */
public record RuleConditions(List<Item> items) {

    /** One element of the rule's {@code when}. */
    public sealed interface Item permits Pattern, Unsupported {
        int line();
    }

    /**
     * {@code $m : Message( priority == "critical" )}, or {@code Said() from $turn.match("x")}.
     *
     * @param from the source expression of a {@code from}, or null when the pattern matches facts
     */
    public record Pattern(String type, String identifier, int line, List<Constraint> constraints, Constraint from)
            implements Item {
    }

    /** A condition element explain does not evaluate ({@code not}, {@code exists}, {@code eval}, ...). */
    public record Unsupported(String text, int line, String why) implements Item {
    }

    /**
     * One top-level constraint as written.
     *
     * @param expression its parse (null when the reader could not parse it: {@code parseError} says why)
     * @param binding    the {@code $name} it binds ({@code $agent : agent}), or null
     */
    public record Constraint(String text, int line, Expression expression, String binding, String parseError) {

        /** {@code $agent : agent}: a binding only, which holds whatever the value. */
        boolean bindsOnly() {
            return binding != null && (expression instanceof NameExpr || expression instanceof FieldAccessExpr);
        }
    }

    public static RuleConditions of(RuleReading rule) {
        return of(rule, 0);
    }

    /**
     * @param line when positive, the line every condition is reported at (a decision table's row:
     *             the DRL lines Drools generated from the table mean nothing to its reader)
     */
    public static RuleConditions of(RuleReading rule, int line) {
        List<Item> items = new ArrayList<>();
        boolean negated = false;
        for (PatternReading p : rule.patterns()) {
            int at = line > 0 ? line : p.line();
            if (!p.positive()) {
                negated = true;
                items.add(new Unsupported("not/exists/or " + p.type() + "(...)", at,
                        "explain does not evaluate a pattern under not, exists, or or forall"));
                continue;
            }
            Constraint from = p.sourceText() == null ? null
                    : constraint(p.sourceText(), at, p.source(), null, "explain cannot read this source");
            List<Constraint> constraints = new ArrayList<>();
            for (Condition c : p.conditions()) {
                constraints.add(constraint(c.text(), line > 0 ? line : c.line(), c.expression(), c.binding(),
                        "explain cannot read this constraint"));
            }
            items.add(new Pattern(p.type(), p.binding(), at, List.copyOf(constraints), from));
        }
        if (rule.opaque() && !negated) {
            // the reader saw something beyond patterns (an eval, ...) that it does not list as one
            int at = line > 0 ? line : rule.descr().getLine();
            items.add(new Unsupported("eval(...)", at, "explain does not evaluate a condition beyond patterns (an eval)"));
        }
        return new RuleConditions(List.copyOf(items));
    }

    private static Constraint constraint(String text, int line, Expression e, String binding, String ifUnread) {
        return new Constraint(text.strip(), line, e, binding, e == null ? ifUnread : null);
    }
}
