package io.signalman.engine.explain;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The conditions of a pack's rules together with the facts of one decision: answers, for any
 * rule, which constraint failed and what it saw. Each rule is checked at most once per decision.
 */
public final class Explainer {

    private final Map<String, RuleConditions> conditions;
    private final ConditionCheck facts;
    private final Map<String, RuleCheck> checked = new ConcurrentHashMap<>();
    private final Guard guard;

    /**
     * What every check runs under: explain evaluates each constraint of a rule on each fact, after a
     * failure too, so it can cost more than the rules themselves did (a published test on a long
     * list of the reference data), and runs under the same budgets as they do.
     */
    public interface Guard {
        <T> T run(java.util.function.Supplier<T> work);
    }

    /**
     * @param conditions every rule of the pack by name
     * @param facts      what the session saw: the decision's facts and the pack's reference facts
     * @param guard      what each check runs under (the engine's watchdog)
     */
    public Explainer(Map<String, RuleConditions> conditions, List<?> facts, Guard guard) {
        this.conditions = conditions;
        this.facts = new ConditionCheck(facts);
        this.guard = guard;
    }

    public boolean knows(String rule) {
        return conditions.containsKey(rule);
    }

    /** The rule's conditions against this decision's facts; null for a rule the pack does not have. */
    public RuleCheck check(String rule) {
        RuleConditions c = conditions.get(rule);
        if (c == null) {
            return null;
        }
        // ConditionCheck keeps per-run state: one check at a time.
        synchronized (facts) {
            RuleCheck done = checked.get(rule);
            if (done == null) {
                done = guard.run(() -> facts.check(c));
                checked.put(rule, done);
            }
            return done;
        }
    }
}
