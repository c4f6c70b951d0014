package io.signalman.engine.explain;

import com.github.javaparser.ast.expr.Expression;
import java.util.ArrayList;
import java.util.List;
import org.drools.drl.ast.descr.AndDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.ExprConstraintDescr;
import org.drools.drl.ast.descr.FromDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.mvel.parser.DrlxParser;
import org.drools.mvel.parser.ParseStart;
import org.drools.mvel.parser.ast.expr.DrlxExpression;

/**
 * A rule's conditions as Drools parses them: its patterns in order, each with its top-level
 * constraints parsed by Drools' DRLX expression parser (the one the executable model compiles
 * from). Built once per rule; what it cannot read is kept with the reason, so explain can say so.
 */
public record RuleConditions(List<Item> items) {

    /** The word operators analysts write, which the DRLX parser must be told about. */
    private static final ParseStart<DrlxExpression> PARSER = DrlxParser.buildDrlxParserWithArguments(
            List.of("str", "matches", "contains", "memberOf", "in", "soundslike", "excludes"));

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

    /** A condition element explain does not evaluate ({@code not}, {@code exists}, {@code or}, ...). */
    public record Unsupported(String text, int line, String why) implements Item {
    }

    /**
     * One top-level constraint as written.
     *
     * @param parsed null when the DRLX parser refused it ({@code parseError} says why)
     */
    public record Constraint(String text, int line, DrlxExpression parsed, String parseError) {

        static Constraint of(String text, int line) {
            try {
                return new Constraint(text, line, DrlxParser.parseExpression(PARSER, text), null);
            } catch (RuntimeException e) {
                return new Constraint(text, line, null, "explain cannot read this constraint: " + e.getMessage());
            }
        }

        /** {@code $agent : agent}: a binding only, which holds whatever the value. */
        boolean bindsOnly() {
            Expression inner = parsed == null ? null : parsed.getExpr();
            return parsed != null && parsed.getBind() != null && (inner instanceof com.github.javaparser.ast.expr.NameExpr
                    || inner instanceof com.github.javaparser.ast.expr.FieldAccessExpr);
        }
    }

    public static RuleConditions of(RuleDescr rule) {
        return of(rule, 0);
    }

    /**
     * @param line when positive, the line every condition is reported at (a decision table's row:
     *             the DRL lines Drools generated from the table mean nothing to its reader)
     */
    public static RuleConditions of(RuleDescr rule, int line) {
        List<Item> items = new ArrayList<>();
        AndDescr lhs = rule.getLhs();
        if (lhs != null) {
            for (BaseDescr d : lhs.getDescrs()) {
                items.add(item(d, line));
            }
        }
        return new RuleConditions(List.copyOf(items));
    }

    private static int at(BaseDescr d, int fixed) {
        return fixed > 0 ? fixed : d.getLine();
    }

    private static Item item(BaseDescr d, int fixed) {
        if (!(d instanceof PatternDescr p)) {
            String kind = d.getClass().getSimpleName().replace("Descr", "").toLowerCase(java.util.Locale.ROOT);
            return new Unsupported(kind, at(d, fixed), "explain does not evaluate a \"" + kind + "\" condition");
        }
        Constraint from = null;
        if (p.getSource() instanceof FromDescr f) {
            from = Constraint.of(f.getExpression(), at(p, fixed));
        } else if (p.getSource() != null) {
            String kind = p.getSource().getClass().getSimpleName().replace("Descr", "").toLowerCase(java.util.Locale.ROOT);
            return new Unsupported(p.getObjectType() + " from " + kind, at(p, fixed),
                    "explain does not evaluate a pattern fed by \"" + kind + "\"");
        }
        List<Constraint> constraints = new ArrayList<>();
        if (p.getConstraint() != null) {
            for (BaseDescr c : p.getConstraint().getDescrs()) {
                String text = c instanceof ExprConstraintDescr e ? e.getExpression() : c.getText();
                constraints.add(Constraint.of(text, fixed > 0 ? fixed : c.getLine() > 0 ? c.getLine() : p.getLine()));
            }
        }
        return new Pattern(p.getObjectType(), p.getIdentifier(), at(p, fixed), List.copyOf(constraints), from);
    }
}
