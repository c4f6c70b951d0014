package io.signalman.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.event.rule.MatchCreatedEvent;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.AgendaGroup;
import org.kie.api.runtime.rule.FactHandle;

/**
 * One long-lived KieSession with its collector, used by one thread at a time.
 *
 * <p>NOTE(perf): a session reused with insert/fire/delete costs about half of a new session per
 * decision, but Drools 10 leaks a little memory per cycle (upstream #6361), so a session is
 * retired after {@link SessionPool#MAX_USES} evaluations. Reference facts are inserted once, at
 * creation. The agenda listener records what fired (always) and what matched (explain only), so
 * consequences stay one call into {@code decide} and never have to report themselves.
 */
final class PackSession extends DefaultAgendaEventListener {

    /** A runaway rule (one that keeps re-activating itself) stops here instead of hanging. */
    static final int MAX_FIRINGS = 10_000;

    private final KieSession session;
    private final Collector collector;
    private final Map<String, RuleInfo> rulesByName;
    private final List<Phase> phases;
    private final List<RuleInfo> fired = new ArrayList<>();
    private final BitSet matched = new BitSet();
    private final List<FactHandle> handles = new ArrayList<>();

    private boolean explaining;
    private int uses;

    PackSession(KieBase kieBase, PackDefinition pack, ReferenceData reference, Map<String, RuleInfo> rulesByName) {
        this.session = kieBase.newKieSession();
        this.collector = pack.newCollector(reference);
        this.rulesByName = rulesByName;
        this.phases = pack.phases();
        session.setGlobal(Collector.GLOBAL, collector);
        session.addEventListener(this);
        for (Object fact : reference.facts()) {
            session.insert(fact);
        }
    }

    /**
     * Runs one evaluation under the {@link Watchdog}: halted at the thread's deadline, stopped over
     * the process's budgets. A session the watchdog halted or stopped is never reused (the caller
     * discards it on the exception), since a halted agenda may stay halted and a stopped one is
     * half-way through a join. The caller reads the collector before giving the session back.
     */
    List<RuleInfo> run(List<?> facts, boolean explain) {
        uses++;
        collector.reset();
        fired.clear();
        matched.clear();
        explaining = explain;
        for (int i = phases.size() - 1; i >= 0; i--) {
            // NOTE: Drools knows only the agenda groups some rule declares and answers null for the
            // others; a pack whose tier has no rule left (every signal route removed) still decides.
            AgendaGroup group = session.getAgenda().getAgendaGroup(phases.get(i).agendaGroup());
            if (group != null) {
                group.setFocus();
            }
        }
        handles.clear();
        // The inserts and deletes are watched with the firing: a fact's own tests (a pattern on its text)
        // may run as it is inserted, and whatever a delete leaves to propagate runs at the next firing.
        int n = Watchdog.watched(session, () -> {
            for (Object fact : facts) {
                handles.add(session.insert(fact));
            }
            int fired = session.fireAllRules(MAX_FIRINGS);
            for (FactHandle h : handles) {
                session.delete(h);
            }
            return fired;
        });
        if (n >= MAX_FIRINGS) {
            throw new RunawayRulesException(MAX_FIRINGS, fired.isEmpty() ? null : fired.get(fired.size() - 1));
        }
        return fired;
    }

    Collector collector() {
        return collector;
    }

    boolean matched(RuleInfo rule) {
        return matched.get(rule.index());
    }

    int uses() {
        return uses;
    }

    void dispose() {
        session.dispose();
    }

    @Override
    public void matchCreated(MatchCreatedEvent event) {
        if (explaining) {
            RuleInfo info = rulesByName.get(event.getMatch().getRule().getName());
            if (info != null) {
                matched.set(info.index());
            }
        }
    }

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        RuleInfo info = rulesByName.get(event.getMatch().getRule().getName());
        if (info != null) {
            fired.add(info);
            matched.set(info.index());
        }
    }
}
