package io.signalman.engine;

import io.signalman.engine.explain.Explainer;
import io.signalman.engine.explain.RuleConditions;
import io.signalman.engine.tables.DecisionTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.kie.api.KieBase;

/**
 * One pack of a compiled bundle: its KieBase, its rules as the analyst wrote them, its reference
 * data and a pool of sessions. Immutable apart from the fire counters; safe to share.
 */
public final class CompiledPack {

    private static final Comparator<RuleInfo> FIRING_ORDER = Comparator.comparingInt(RuleInfo::phaseIndex)
            .thenComparing(Comparator.comparingInt(RuleInfo::salience).reversed())
            .thenComparingInt(RuleInfo::index);

    private final PackDefinition definition;
    private final KieBase kieBase;
    private final List<RuleInfo> rules;
    private final List<ParsedRule> parsed;
    private final Map<String, RuleInfo> byName;
    private final ReferenceData reference;
    private final SessionPool pool;
    private final LongAdder[] fireCounts;
    /** Firings during the gate's replay, set when the gate passed; null before (or without a gate). */
    private volatile long[] gateCounts;
    /** Every rule's conditions, parsed for explain on its first use (most packs are never explained). */
    private volatile Map<String, RuleConditions> conditions;

    CompiledPack(PackDefinition definition, KieBase kieBase, List<ParsedRule> parsed, ReferenceData reference) {
        List<RuleInfo> rules = parsed.stream().map(ParsedRule::info).toList();
        this.definition = definition;
        this.kieBase = kieBase;
        this.parsed = parsed;
        this.rules = rules.stream().sorted(FIRING_ORDER).toList();
        this.byName = new HashMap<>();
        rules.forEach(r -> byName.put(r.name(), r));
        this.reference = reference;
        this.fireCounts = new LongAdder[rules.size()];
        for (int i = 0; i < fireCounts.length; i++) {
            fireCounts[i] = new LongAdder();
        }
        this.pool = new SessionPool(() -> new PackSession(kieBase, definition, reference, byName));
    }

    /** The same rules over other reference data (replay of archives recorded with other data). */
    public CompiledPack withReference(ReferenceData other) throws BundleException {
        return new CompiledPack(definition, kieBase, parsed, definition.analyze(parsed, other));
    }

    /**
     * The same compiled rules (no recompilation, no new analysis), with counts and sessions of
     * their own: decisions made only to be looked at (the workbench's scenarios and "Try a
     * message" on the live rules) are not live decisions, so they must not show in
     * {@link #timesFired}.
     */
    public CompiledPack apart() {
        CompiledPack copy = new CompiledPack(definition, kieBase, parsed, reference);
        copy.conditions = conditions;
        return copy;
    }

    public String name() {
        return definition.name();
    }

    public PackDefinition definition() {
        return definition;
    }

    /** Every rule of the pack, in firing order (phase, then salience, then load order). */
    public List<RuleInfo> rules() {
        return rules;
    }

    public ReferenceData reference() {
        return reference;
    }

    /**
     * Times the rule fired in decisions made with this bundle since it passed the gate: the live
     * count, as {@code signalman_rule_fired_total} counts (which also spans reloads).
     */
    public long timesFired(RuleInfo rule) {
        return fireCounts[rule.index()].sum() - timesFiredInGate(rule);
    }

    /** Times the rule fired while the reload gate replayed the golden history over this bundle. */
    public long timesFiredInGate(RuleInfo rule) {
        long[] gate = gateCounts;
        return gate == null ? 0 : gate[rule.index()];
    }

    /**
     * Called once the gate has passed, before the bundle serves: what fired until now was the
     * gate's replay, so it is kept apart from live firings.
     */
    void gatePassed() {
        long[] gate = new long[fireCounts.length];
        for (int i = 0; i < gate.length; i++) {
            gate[i] = fireCounts[i].sum();
        }
        gateCounts = gate;
    }

    /**
     * Evaluates the rules over the given facts. Blocking work: call it from a worker thread.
     *
     * @param read copies the collector's state into the pack's immutable outcome
     */
    public <C extends Collector, R> Evaluation<R> evaluate(List<?> facts, boolean explain, Function<C, R> read) {
        Deadline.check();
        PackSession session = pool.borrow();
        List<RuleInfo> fired;
        R outcome;
        List<Evaluation.Considered> considered = null;
        Explainer explainer = null;
        try {
            fired = List.copyOf(session.run(facts, explain));
            @SuppressWarnings("unchecked")
            C collector = (C) session.collector();
            outcome = read.apply(collector);
            if (explain) {
                List<Object> seen = new ArrayList<>(facts);
                seen.addAll(reference.facts());
                explainer = new Explainer(conditions(), seen, Watchdog::watched);
                Explainer checks = explainer;
                considered = Watchdog.watched(() -> explain(session, fired, checks)); // one budget for every rule's check
            }
        } catch (RuntimeException e) {
            pool.discard(session);
            throw e;
        }
        // A result that comes too late is thrown away before anyone can commit it, and so is its
        // session. NOTE: the session is sound (the evaluation ended), but its thread may have been
        // given up on and replaced meanwhile; given back, late sessions would grow the pool past
        // the threads that evaluate on time, and keep whatever a held rule left in them.
        if (Deadline.passed()) {
            pool.discard(session);
            throw new DeadlineExceededException();
        }
        pool.giveBack(session);
        RuleInfo decidedBy = null;
        for (RuleInfo r : fired) {
            fireCounts[r.index()].increment();
            if (decidedBy == null && r.decides()) {
                decidedBy = r;
            }
        }
        return new Evaluation<>(outcome, fired, decidedBy, considered, explainer);
    }

    /**
     * The rule the cost model estimates costliest (most steps, then most combinations): the suspect
     * when a decision of this pack goes over its budget, since a stop inside a join cannot say whose
     * join it was. Null for a pack without rules.
     */
    public RuleInfo costliest() {
        io.signalman.cost.CostModel model = new io.signalman.cost.CostModel(definition.vocabulary(), reference.facts(),
                io.signalman.cost.Budgets.current());
        ParsedRule worst = null;
        io.signalman.cost.CostModel.Estimate most = null;
        for (ParsedRule r : parsed) {
            io.signalman.cost.CostModel.Estimate e = model.estimate(r.reading());
            if (most == null || e.steps() > most.steps() || e.steps() == most.steps() && e.combinations() > most.combinations()) {
                most = e;
                worst = r;
            }
        }
        return worst == null ? null : worst.info();
    }

    /** Sessions waiting in the pool for the next evaluation. */
    int idleSessions() {
        return pool.idle();
    }

    /** The conditions of every rule by name, parsed once per compiled pack. */
    public Map<String, RuleConditions> conditions() {
        Map<String, RuleConditions> c = conditions;
        if (c == null) {
            Map<String, RuleConditions> built = new HashMap<>();
            for (ParsedRule r : parsed) {
                // A rule read from a decision table is explained at its row, not a generated line.
                built.put(r.info().name(), DecisionTable.isTable(r.info().file())
                        ? RuleConditions.of(r.reading(), r.info().line()) : RuleConditions.of(r.reading()));
            }
            c = Map.copyOf(built);
            conditions = c;
        }
        return c;
    }

    private List<Evaluation.Considered> explain(PackSession session, List<RuleInfo> fired, Explainer explainer) {
        List<Evaluation.Considered> out = new ArrayList<>(rules.size());
        for (RuleInfo r : rules) {
            Evaluation.Status status;
            if (fired.contains(r)) {
                status = Evaluation.Status.FIRED;
            } else if (session.matched(r)) {
                status = Evaluation.Status.MATCHED_BUT_CANCELLED;
            } else {
                status = Evaluation.Status.NOT_MATCHED;
            }
            out.add(new Evaluation.Considered(r, status,
                    status == Evaluation.Status.NOT_MATCHED ? explainer.check(r.name()) : null));
        }
        return out;
    }
}
