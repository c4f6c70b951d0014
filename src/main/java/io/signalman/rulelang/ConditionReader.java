package io.signalman.rulelang;

import com.github.javaparser.ast.expr.Expression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.drools.drl.ast.descr.AndDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.EvalDescr;
import org.drools.drl.ast.descr.ExistsDescr;
import org.drools.drl.ast.descr.ExprConstraintDescr;
import org.drools.drl.ast.descr.ForallDescr;
import org.drools.drl.ast.descr.FromDescr;
import org.drools.drl.ast.descr.NotDescr;
import org.drools.drl.ast.descr.OrDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;
import org.drools.mvel.parser.DrlxParser;
import org.drools.mvel.parser.ParseStart;
import org.drools.mvel.parser.ast.expr.DrlxExpression;

/**
 * Reads a rule's condition from Drools' parse: its patterns, each constraint parsed with the
 * expression parser the executable model compiles it with, and the bindings they introduce.
 * With a vocabulary, every pattern must name one of the pack's facts and every expression is
 * checked by {@link ExpressionCheck}; {@code from} may only read a binding's published test
 * ({@code from $turn.match("[DONE]")}), {@code eval} only what a constraint could say, and
 * {@code accumulate}, {@code collect} and entry points are outside the language.
 */
final class ConditionReader {

    private static final ParseStart<DrlxExpression> PARSER = DrlxParser.buildDrlxParserWithArguments(List.of("str"));

    private final Vocabulary vocabulary;
    private final List<Finding> findings;
    private final Map<String, Class<?>> bindings = new LinkedHashMap<>();
    private final List<PatternReading> patterns = new ArrayList<>();
    private boolean opaque;

    private ConditionReader(Vocabulary vocabulary, List<Finding> findings) {
        this.vocabulary = vocabulary;
        this.findings = findings;
    }

    /** What a condition read as: its patterns, the bindings a consequence may use, and whether it is opaque. */
    record Read(List<PatternReading> patterns, Map<String, Class<?>> bindings, boolean opaque) {
    }

    static Read read(RuleDescr rule, Vocabulary vocabulary, List<Finding> findings) {
        ConditionReader r = new ConditionReader(vocabulary, findings);
        int patterns = rule.getLhs() == null ? 0 : countPatterns(rule.getLhs());
        if (patterns > TextBounds.MAX_PATTERNS_PER_RULE) {
            // Refused before any constraint is parsed: the count alone says the rule is too large to read.
            r.refuse(rule.getLine(), 1, TextBounds.tooManyPatterns(patterns));
            return new Read(List.of(), r.bindings, true);
        }
        if (rule.getLhs() != null) {
            for (BaseDescr d : rule.getLhs().getDescrs()) {
                r.element(d, true, rule);
            }
        }
        return new Read(r.patterns, r.bindings, r.opaque);
    }

    /** Every pattern under {@code d}, however deep (in not, exists, or, forall, a from's source). */
    private static int countPatterns(BaseDescr d) {
        int n = d instanceof PatternDescr ? 1 : 0;
        if (d instanceof PatternDescr p && p.getSource() != null) {
            n += countPatterns(p.getSource());
        }
        if (d instanceof org.drools.drl.ast.descr.ConditionalElementDescr ce) {
            for (Object x : ce.getDescrs()) {
                n += x instanceof BaseDescr b ? countPatterns(b) : 0;
            }
        }
        return n;
    }

    private void element(BaseDescr d, boolean positive, RuleDescr rule) {
        if (d instanceof PatternDescr p) {
            pattern(p, positive, rule);
        } else if (d instanceof AndDescr a) {
            a.getDescrs().forEach(x -> element(x, positive, rule));
        } else if (d instanceof NotDescr || d instanceof ExistsDescr || d instanceof OrDescr || d instanceof ForallDescr) {
            opaque = true;
            for (Object x : ((org.drools.drl.ast.descr.ConditionalElementDescr) d).getDescrs()) {
                element((BaseDescr) x, false, rule);
            }
        } else if (d instanceof EvalDescr e) {
            opaque = true;
            expression(String.valueOf(e.getContent()), null, line(d, rule), column(d));
        } else {
            opaque = true;
            refuse(line(d, rule), column(d), Syntax.element(d) + " is not part of the rule language; " + Words.WHAT_RULES_MAY_DO);
        }
    }

    private void pattern(PatternDescr p, boolean positive, RuleDescr rule) {
        int line = line(p, rule);
        Class<?> fact = null;
        if (vocabulary != null) {
            fact = vocabulary.fact(p.getObjectType()).orElse(null);
            if (fact == null) {
                refuse(line, column(p), "\"" + p.getObjectType() + "\" is not a fact of this pack"
                        + Suggest.hint(p.getObjectType(), vocabulary.factNames(), "Its facts"));
            }
        }
        Expression source = null;
        String sourceText = null;
        if (p.getSource() instanceof FromDescr from) {
            sourceText = from.getDataSource() == null ? "" : from.getDataSource().getText();
            source = expression(sourceText, null, line, column(p));
        } else if (p.getSource() != null) {
            refuse(line, column(p), Syntax.element(p.getSource()) + " is not part of the rule language; a pattern matches "
                    + "the pack's facts, or reads a fact's test with from $binding.test(...)");
        }
        if (p.getIdentifier() != null) {
            bindings.put(p.getIdentifier(), fact == null ? ExpressionCheck.VALUE : fact);
        }
        List<Condition> conditions = new ArrayList<>();
        for (BaseDescr c : p.getConstraint().getDescrs()) {
            int cl = c.getLine() > 0 ? c.getLine() : line;
            int cc = column(c);
            if (!(c instanceof ExprConstraintDescr e)) {
                opaque = true;
                refuse(cl, cc, Syntax.element(c) + " is not part of the rule language");
                continue;
            }
            Expression parsed = parse(e.getExpression(), cl, cc);
            if (parsed == null) {
                continue;
            }
            DrlxExpression drlx = (DrlxExpression) parsed;
            String bind = drlx.getBind() == null ? null : drlx.getBind().asString();
            conditions.add(new Condition(e.getExpression(), drlx.getExpr(), bind, cl, cc));
            if (fact != null) {
                check(drlx, fact, cl, cc); // an unknown fact was reported; its fields would only repeat it
            } else if (bind != null) {
                bindings.put(bind, ExpressionCheck.VALUE);
            }
        }
        patterns.add(new PatternReading(p.getObjectType(), p.getIdentifier(), conditions, source, sourceText, line, positive));
    }

    /** Parses and checks an expression outside a pattern (an eval, a from source). */
    private Expression expression(String text, Class<?> self, int line, int column) {
        Expression parsed = parse(text, line, column);
        if (parsed == null) {
            return null;
        }
        check(parsed, self, line, column);
        return ((DrlxExpression) parsed).getExpr();
    }

    private void check(Expression e, Class<?> self, int line, int column) {
        if (vocabulary != null) {
            new ExpressionCheck(vocabulary, bindings, self, findings, line, column).check(e);
        }
    }

    private Expression parse(String text, int line, int column) {
        if (text.length() > TextBounds.MAX_EXPRESSION_CHARS) {
            refuse(line, column, TextBounds.expressionTooLong(text.length()));
            return null;
        }
        try {
            return DrlxParser.parseExpression(PARSER, text);
        } catch (RuntimeException e) {
            refuse(line, column, "\"" + text.strip() + "\" does not read as a condition: " + Syntax.plain(e.getMessage()));
            return null;
        }
    }

    private static int line(BaseDescr d, RuleDescr rule) {
        return d.getLine() > 0 ? d.getLine() : rule.getLine();
    }

    private static int column(BaseDescr d) {
        return Math.max(d.getColumn(), 0) + 1;
    }

    private void refuse(int line, int column, String message) {
        findings.add(new Finding(line, column, message));
    }
}
