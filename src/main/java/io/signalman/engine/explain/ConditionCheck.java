package io.signalman.engine.explain;

import io.signalman.engine.explain.RuleConditions.Constraint;
import io.signalman.engine.explain.RuleConditions.Item;
import io.signalman.engine.explain.RuleConditions.Pattern;
import io.signalman.engine.explain.RuleConditions.Unsupported;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates a rule's conditions against the facts of one decision the way the engine joins them:
 * each pattern tries every fact of its type, with the bindings of the patterns before it, and the
 * rule holds when some combination satisfies every constraint. When none does, the failure shown
 * is the one on the path that got furthest, with the values the failing constraint read.
 *
 * <p>Runs on the deciding thread after the engine has decided; it reads facts and never changes
 * them (facts are immutable records), so the decision itself is not affected.
 */
public final class ConditionCheck {

    /** A join of many facts could take long; explain stops here and says so. */
    static final int MAX_STEPS = 10_000;

    private final List<Object> facts;
    private int steps;
    private int deepest;
    private Check failure;
    private List<Check> failurePath;
    private List<Check> success;

    public ConditionCheck(List<?> facts) {
        this.facts = List.copyOf(facts);
    }

    public RuleCheck check(RuleConditions conditions) {
        steps = 0;
        deepest = -1;
        failure = null;
        failurePath = List.of();
        success = null;
        List<Item> items = conditions.items();
        if (search(items, 0, new HashMap<>(), new ArrayList<>())) {
            return new RuleCheck(true, null, List.copyOf(success));
        }
        List<Check> checks = new ArrayList<>(failurePath);
        for (int i = deepest + 1; i < items.size(); i++) {
            checks.addAll(unreached(items.get(i)));
        }
        return new RuleCheck(false, failure, List.copyOf(checks));
    }

    private boolean search(List<Item> items, int i, Map<String, Object> bindings, List<Check> path) {
        if (i == items.size()) {
            success = path;
            return true;
        }
        if (++steps > MAX_STEPS) {
            fail(i, path, new Check(name(items.get(i)), name(items.get(i)), items.get(i).line(), null, Map.of(), 0,
                    "more than " + MAX_STEPS + " combinations of facts; explain stopped trying"));
            return false;
        }
        if (items.get(i) instanceof Unsupported u) {
            fail(i, path, new Check(u.text(), u.text(), u.line(), null, Map.of(), 0, u.why()));
            return false;
        }
        Pattern p = (Pattern) items.get(i);
        List<Object> candidates = candidates(p, bindings, i, path);
        if (candidates == null) {
            return false;
        }
        List<Check> best = null;
        int reached = 0;
        for (Object fact : candidates) {
            Map<String, Object> bound = new HashMap<>(bindings);
            if (p.identifier() != null) {
                bound.put(p.identifier(), fact);
            }
            List<Check> attempt = attempt(p, fact, bound);
            int passed = passed(attempt);
            if (passed == attempt.size()) {
                List<Check> next = new ArrayList<>(path);
                next.addAll(attempt);
                if (search(items, i + 1, bound, next)) {
                    return true;
                }
            } else if (best == null || passed > passed(best)) {
                best = attempt;
                reached = 1;
            } else if (passed == passed(best)) {
                reached++;
            }
        }
        if (best != null) {
            int at = passed(best);
            Check f = best.get(at);
            if (reached > 1) {
                f = new Check(f.pattern(), f.constraint(), f.line(), f.result(), f.values(), reached, f.note());
                best = new ArrayList<>(best);
                best.set(at, f);
            }
            List<Check> failed = new ArrayList<>(path);
            failed.addAll(best);
            fail(i, failed, f);
        }
        return false;
    }

    /** The facts a pattern tries: those of its type, or what its {@code from} gives; null when it failed. */
    private List<Object> candidates(Pattern p, Map<String, Object> bindings, int i, List<Check> path) {
        if (p.from() == null) {
            List<Object> out = facts.stream().filter(f -> isA(f, p.type())).toList();
            if (out.isEmpty()) {
                fail(i, path, new Check(p.type(), p.type() + "(...)", p.line(), false, Map.of(), 0,
                        "there is no " + p.type() + " fact in this decision"));
                return null;
            }
            return out;
        }
        String text = "from " + p.from().text();
        if (p.from().expression() == null) {
            fail(i, path, new Check(p.type(), text, p.line(), null, Map.of(), 0, p.from().parseError()));
            return null;
        }
        Evaluator ev = new Evaluator(null, new HashMap<>(bindings));
        try {
            List<Object> out = flatten(ev.eval(p.from().expression())).stream().filter(f -> isA(f, p.type())).toList();
            if (out.isEmpty()) {
                fail(i, path, new Check(p.type(), text, p.line(), false, ev.seen(), 0, "it gives no " + p.type()));
                return null;
            }
            return out;
        } catch (Unevaluable e) {
            fail(i, path, new Check(p.type(), text, p.line(), null, ev.seen(), 0, e.getMessage()));
            return null;
        } catch (RuntimeException e) {
            fail(i, path, new Check(p.type(), text, p.line(), null, ev.seen(), 0, "explain could not evaluate it: " + e));
            return null;
        }
    }

    /** Every constraint of the pattern on one fact, in order (after a failure too, for why-not). */
    private static List<Check> attempt(Pattern p, Object fact, Map<String, Object> bound) {
        List<Check> out = new ArrayList<>(p.constraints().size());
        for (Constraint c : p.constraints()) {
            if (c.expression() == null) {
                out.add(new Check(p.type(), c.text(), c.line(), null, Map.of(), 1, c.parseError()));
                continue;
            }
            Evaluator ev = new Evaluator(fact, bound);
            try {
                Object v = ev.eval(c.expression());
                if (c.binding() != null) {
                    bound.put(c.binding(), v);
                }
                Boolean result = c.bindsOnly() ? Boolean.TRUE : v instanceof Boolean b ? b : null;
                Map<String, Object> seen = new LinkedHashMap<>(ev.seen());
                if (result != null) {
                    // hasAttachments was false: the result already says what the value was
                    seen.remove(c.text());
                }
                out.add(new Check(p.type(), c.text(), c.line(), result, seen, 1,
                        result == null ? "it gives " + Values.show(v) + ", not true or false" : null));
            } catch (Unevaluable e) {
                out.add(new Check(p.type(), c.text(), c.line(), null, new LinkedHashMap<>(ev.seen()), 1, e.getMessage()));
            } catch (RuntimeException e) {
                // An explanation must never fail the decision it explains (a bad regex in matches, ...).
                out.add(new Check(p.type(), c.text(), c.line(), null, new LinkedHashMap<>(ev.seen()), 1,
                        "explain could not evaluate it: " + e));
            }
        }
        return out;
    }

    /** How many constraints held before the first that did not. */
    private static int passed(List<Check> attempt) {
        int n = 0;
        while (n < attempt.size() && Boolean.TRUE.equals(attempt.get(n).result())) {
            n++;
        }
        return n;
    }

    private void fail(int depth, List<Check> path, Check f) {
        if (depth > deepest) {
            deepest = depth;
            failure = f;
            failurePath = List.copyOf(path);
        }
    }

    private static List<Check> unreached(Item item) {
        if (item instanceof Pattern p) {
            List<Check> out = new ArrayList<>();
            for (Constraint c : p.constraints()) {
                out.add(new Check(p.type(), c.text(), c.line(), null, Map.of(), 0, "not reached: an earlier condition failed"));
            }
            return out;
        }
        Unsupported u = (Unsupported) item;
        return List.of(new Check(u.text(), u.text(), u.line(), null, Map.of(), 0, "not reached: an earlier condition failed"));
    }

    private static String name(Item item) {
        return item instanceof Pattern p ? p.type() : ((Unsupported) item).text();
    }

    private static List<Object> flatten(Object source) {
        if (source == null) {
            return List.of();
        }
        if (source instanceof Collection<?> c) {
            return new ArrayList<>(c);
        }
        if (source instanceof Optional<?> o) {
            return o.<List<Object>>map(List::of).orElse(List.of());
        }
        return List.of(source);
    }

    /** A fact is of a pattern's type by its class's simple or full name, or a supertype's. */
    static boolean isA(Object fact, String type) {
        return TYPE_NAMES.get(fact.getClass()).contains(type);
    }

    /** A class's simple and full names, its superclasses' and their interfaces': read once per class. */
    private static final ClassValue<java.util.Set<String>> TYPE_NAMES = new ClassValue<>() {
        @Override
        protected java.util.Set<String> computeValue(Class<?> type) {
            java.util.Set<String> names = new java.util.HashSet<>();
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                names.add(c.getSimpleName());
                names.add(c.getName());
                for (Class<?> i : c.getInterfaces()) {
                    names.add(i.getSimpleName());
                    names.add(i.getName());
                }
            }
            return java.util.Set.copyOf(names);
        }
    };
}
