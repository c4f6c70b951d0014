package io.signalman.cost;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import io.signalman.rulelang.Condition;
import io.signalman.rulelang.PatternReading;
import io.signalman.rulelang.RegexSize;
import io.signalman.rulelang.RuleReading;
import io.signalman.rulelang.Vocabulary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.drools.mvel.parser.ast.expr.DrlNameExpr;
import org.drools.mvel.parser.ast.expr.PointFreeExpr;

/**
 * A rule's worst-case cost for one decision, estimated from its text and its pack's known facts
 * before it ever runs, as CEL estimates an expression's cost before it evaluates it; but where
 * CEL must assume the largest list, a pack's reference facts are a fixed set the model counts.
 *
 * <p>The model: the patterns join in the order written. A pattern of an input fact matches one
 * fact (a decision inserts at most one of each); a pattern of reference facts matches as many as
 * the pack holds, or, when one of its constraints pins a field ({@code id == $m.recipient},
 * {@code role == "cfo"}), as many as share the commonest value of that field, which the model
 * counts in the reference data itself. The combinations are the product; each pattern's
 * constraints are tested once per combination reaching it, an ordinary test costing one step per
 * node of its expression and a {@code matches} pattern its compiled size ({@link RegexSize}) times
 * the longest text a rule can see (the body limit). A {@code from} source yields at most one
 * element for every published test today ({@code Turn.match}), so it joins as one.
 *
 * <p>The estimate errs on the large side: an alpha test (one that reads its own fact only) runs
 * once per fact, not once per combination, and a text field of the reference data is shorter
 * than a request body. Only refusals can come of that, never an admitted runaway.
 */
public final class CostModel {

    private final Vocabulary vocabulary;
    private final List<Object> reference;
    private final Budgets budgets;

    /** The longest text a pattern can be matched against: a request body, or a reference fact's field. */
    private final long longestText;

    public CostModel(Vocabulary vocabulary, List<Object> referenceFacts, Budgets budgets) {
        this.vocabulary = vocabulary;
        this.reference = List.copyOf(referenceFacts);
        this.budgets = budgets;
        this.longestText = Math.max(budgets.longestText(), FieldValues.longestText(reference));
        this.longestValue = Math.max(longestText, FieldValues.longestList(reference));
    }

    /**
     * The most a published test or a word operator can walk: the longest text or list it can be
     * given. A call counts that many steps ({@code containsAll} its square: it walks one list for
     * each element of the other), since a test on a value reads all of it at worst.
     */
    private final long longestValue;

    /**
     * Why the pack's rules together are over budget: every decision tests every rule's constraints
     * on the facts it inserts (Drools' alpha network), whichever rule decides, so many rules each
     * within budget can add up to a runaway. Null when the total is within {@link Budgets#maxPackSteps()}.
     */
    public String packProblem(List<RuleReading> rules) {
        long total = 0;
        List<RuleReading> sorted = new ArrayList<>(rules);
        java.util.Map<RuleReading, Long> steps = new java.util.IdentityHashMap<>();
        for (RuleReading r : rules) {
            long s = estimate(r).steps();
            steps.put(r, s);
            total = add(total, s);
        }
        if (total <= budgets.maxPackSteps()) {
            return null;
        }
        sorted.sort((a, b) -> Long.compare(steps.get(b), steps.get(a)));
        List<String> top = sorted.stream().limit(3).map(r -> "\"" + r.name() + "\" (" + number(steps.get(r)) + ")").toList();
        return "the pack's rules together can take up to " + number(total) + " steps for one decision, more than the "
                + number(budgets.maxPackSteps()) + " a pack may take (--max-pack-steps); the costliest: "
                + String.join(", ", top) + ": write shorter patterns, or fewer rules that test them";
    }

    /** One rule's estimate, with the words that say where it comes from. */
    public record Estimate(long combinations, long steps, String combinationWords, String stepWords) {
    }

    public Estimate estimate(RuleReading rule) {
        long tuples = 1;
        long steps = 0;
        Map<String, List<Long>> factors = new LinkedHashMap<>();
        String costliest = null;
        long costliestSteps = -1;
        for (PatternReading p : rule.patterns()) {
            long factor = factor(p);
            tuples = mul(tuples, factor);
            if (factor > 1) {
                factors.computeIfAbsent(p.type(), k -> new ArrayList<>()).add(factor);
            }
            long own = 1 + (p.source() == null ? 0 : conditionSteps(p.source()));
            for (Condition c : p.conditions()) {
                long cost = conditionSteps(c.expression());
                own = add(own, cost);
                if (cost > costliestSteps) {
                    costliestSteps = cost;
                    costliest = c.text().strip();
                }
            }
            steps = add(steps, mul(tuples, own));
        }
        return new Estimate(tuples, steps, combinationWords(tuples, factors), stepWords(costliest, costliestSteps));
    }

    /**
     * Why {@code rule} is over budget, in an analyst's words with the estimate; null when it is
     * within both budgets.
     */
    public String problem(RuleReading rule) {
        Estimate e = estimate(rule);
        if (e.combinations() > budgets.maxCombinations()) {
            return "rule \"" + rule.name() + "\" can form up to " + e.combinationWords() + ", more than the "
                    + number(budgets.maxCombinations()) + " a rule may form (--max-rule-combinations): "
                    + "join each fact to the message on a field (AgentCard( id == $m.recipient )), or use fewer patterns";
        }
        if (e.steps() > budgets.maxSteps()) {
            return "rule \"" + rule.name() + "\" can take up to " + number(e.steps()) + " steps for one decision, more "
                    + "than the " + number(budgets.maxSteps()) + " a rule may take (--max-rule-steps); the costliest "
                    + "condition: " + e.stepWords() + ": write a shorter pattern, or test it on fewer facts";
        }
        return null;
    }

    /** How many facts pattern {@code p} can match for one combination reaching it. */
    private long factor(PatternReading p) {
        if (p.source() != null) {
            return 1;
        }
        Class<?> type = vocabulary.fact(p.type()).orElse(null);
        if (type == null) {
            return 1;
        }
        List<Object> facts = reference.stream().filter(type::isInstance).toList();
        if (facts.isEmpty()) {
            return 1; // an input fact: one per decision
        }
        long best = facts.size();
        for (Condition c : p.conditions()) {
            long pinned = pinned(unwrap(c.expression()), facts);
            if (pinned >= 0) {
                best = Math.min(best, pinned);
            }
        }
        return Math.max(1, best);
    }

    /**
     * How many of {@code facts} a constraint {@code field == x} lets through: those holding the
     * literal x, or for x read from another fact, the largest group sharing one value; -1 for a
     * constraint of another shape.
     */
    private static long pinned(Expression e, List<Object> facts) {
        if (!(e instanceof BinaryExpr b) || b.getOperator() != BinaryExpr.Operator.EQUALS) {
            return -1;
        }
        Expression left = unwrap(b.getLeft());
        Expression right = unwrap(b.getRight());
        String field = fieldName(left);
        Expression other = right;
        if (field == null) {
            field = fieldName(right);
            other = left;
        }
        if (field == null) {
            return -1;
        }
        if (other instanceof StringLiteralExpr s) {
            return FieldValues.matching(facts, field, s.asString());
        }
        if (other instanceof LiteralExpr) {
            return -1; // a number's or a boolean's type would have to match the field's; leave it unpinned
        }
        boolean readsABinding = other.findAll(Node.class).stream().anyMatch(n -> n instanceof NameExpr x
                && x.getNameAsString().startsWith("$") || n instanceof DrlNameExpr d && d.getNameAsString().startsWith("$"));
        return readsABinding ? FieldValues.largestGroup(facts, field) : -1;
    }

    private static String fieldName(Expression e) {
        if (e instanceof NameExpr n && !n.getNameAsString().startsWith("$")) {
            return n.getNameAsString();
        }
        return null;
    }

    private static Expression unwrap(Expression e) {
        return e instanceof EnclosedExpr en ? unwrap(en.getInner()) : e;
    }

    private long conditionSteps(Expression e) {
        long steps = nodes(e);
        for (com.github.javaparser.ast.expr.MethodCallExpr call : e.findAll(com.github.javaparser.ast.expr.MethodCallExpr.class)) {
            steps = add(steps, call.getNameAsString().equals("containsAll") ? mul(longestValue, longestValue) : longestValue);
        }
        for (PointFreeExpr p : e.findAll(PointFreeExpr.class)) {
            String op = p.getOperator().asString();
            if (op.equals("contains") || op.equals("memberOf")) {
                steps = add(steps, longestValue);
            }
            if (op.equals("matches") && p.getRight().size() == 1
                    && p.getRight().get(0) instanceof StringLiteralExpr s) {
                RegexSize size = RegexSize.of(s.asString());
                // A pattern over the text bounds is refused by the rule reader at its own line; counted
                // here too, the same pattern would be reported twice.
                steps = add(steps, size.problem() != null ? 0 : mul(size.size(), longestText));
            }
        }
        return steps;
    }

    private static long nodes(Node n) {
        return n.findAll(Node.class).size();
    }

    private String stepWords(String condition, long steps) {
        return condition == null ? "none" : "\"" + condition + "\", about " + number(steps) + " steps for each "
                + "combination it is tested on (a pattern costs its compiled size for each character of a text up to "
                + number(longestText) + " characters long)";
    }

    private static String combinationWords(long tuples, Map<String, List<Long>> factors) {
        if (factors.isEmpty()) {
            return "1 combination";
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<Long>> f : factors.entrySet()) {
            List<Long> each = f.getValue();
            boolean same = each.stream().distinct().count() == 1;
            String power = same && each.size() > 1 ? each.get(0) + "^" + each.size()
                    : String.join(" x ", each.stream().map(String::valueOf).toList());
            parts.add(power + " " + f.getKey());
        }
        if (parts.size() == 1) {
            String only = factors.keySet().iterator().next();
            return parts.get(0).substring(0, parts.get(0).length() - only.length() - 1) + " = " + number(tuples)
                    + " combinations of " + only + " facts";
        }
        return String.join(" x ", parts) + " = " + number(tuples) + " combinations";
    }

    /** 17,576 below a million; 3.1e8 above. */
    static String number(long n) {
        if (n == Long.MAX_VALUE) {
            return "more than 9.2e18";
        }
        if (n < 1_000_000) {
            return String.format("%,d", n);
        }
        int exp = (int) Math.floor(Math.log10(n));
        double mant = n / Math.pow(10, exp);
        return String.format("%.1fe%d", mant, exp);
    }

    private static long add(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    private static long mul(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }
}
