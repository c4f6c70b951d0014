package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.broker.AgentCard;
import io.signalman.broker.OrgChart;
import io.signalman.engine.RuleBundle;
import io.signalman.fsm.Machine;
import io.signalman.fsm.Machines;
import io.signalman.fsm.Transition;
import io.signalman.handoff.Crew;
import io.signalman.handoff.HandoffReference;
import io.signalman.handoff.SignalRule;
import io.signalman.json.Json;
import java.util.Comparator;

/**
 * The packs' reference data as an analyst reads it: FSM machines with the Mermaid text that
 * {@code GET /v1/fsm/machines/{m}} serves, each handoff crew with its signal table, the broker's
 * org chart. Read from the live bundle; nothing here decides anything.
 */
final class PackViews {

    private PackViews() {
    }

    static ArrayNode machines(RuleBundle b) {
        ArrayNode out = Json.array();
        b.pack("fsm").ifPresent(p -> {
            Machines machines = p.reference().as(Machines.class);
            for (Machine m : machines.all()) {
                ObjectNode n = out.addObject();
                n.put("name", m.name());
                n.put("initial_state", m.initial());
                m.states().forEach(n.putArray("states")::add);
                ArrayNode rows = n.putArray("transitions");
                for (Transition t : machines.transitions(m.name())) {
                    rows.addObject().put("from", t.from()).put("action", t.action()).put("to", t.to())
                            .put("guard", t.guarded() ? t.rule().name() : null).put("salience", t.rule().salience())
                            .put("file", t.rule().file()).put("line", t.rule().line());
                }
                n.put("mermaid", machines.mermaid(m.name()));
            }
        });
        return out;
    }

    static ArrayNode crews(RuleBundle b) {
        ArrayNode out = Json.array();
        b.pack("handoff").ifPresent(p -> {
            HandoffReference ref = p.reference().as(HandoffReference.class);
            ref.crews().values().stream().sorted(Comparator.comparing(Crew::name)).forEach(c -> {
                ObjectNode n = out.addObject();
                n.put("name", c.name());
                n.put("entry_agent", c.entryAgent());
                n.put("max_handoffs", c.maxHandoffs());
                ArrayNode agents = n.putArray("agents");
                for (Crew.Agent a : c.agents()) {
                    ObjectNode an = agents.addObject().put("id", a.id()).put("is_terminal", a.isTerminal())
                            .put("wait_for_signal", a.waitForSignal());
                    a.handoffTargets().forEach(an.putArray("handoff_targets")::add);
                }
                ArrayNode groups = n.putArray("parallel_groups");
                c.groups().values().stream().sorted(Comparator.comparing(Crew.Group::id)).forEach(g -> {
                    ObjectNode gn = groups.addObject().put("id", g.id()).put("next_agent", g.nextAgent())
                            .put("timeout_seconds", g.timeoutSeconds()).put("wait_for_all", g.waitForAll());
                    g.agents().forEach(gn.putArray("agents")::add);
                });
                ArrayNode signals = n.putArray("signals");
                for (SignalRule r : ref.signalRules()) {
                    if (r.crew().equals(c.name())) {
                        signals.addObject().put("agent", r.agent()).put("signal", r.signal())
                                .put("then", r.terminates() ? "terminate" : r.target()).put("rule", r.rule())
                                .put("file", r.file()).put("line", r.line());
                    }
                }
            });
        });
        return out;
    }

    static ArrayNode orgChart(RuleBundle b) {
        ArrayNode out = Json.array();
        b.pack("broker").ifPresent(p -> {
            OrgChart chart = p.reference().as(OrgChart.class);
            chart.cards().stream().sorted(Comparator.comparing(AgentCard::id)).forEach(c -> {
                ObjectNode n = out.addObject();
                n.put("id", c.id()).put("name", c.name()).put("title", c.title()).put("role", c.role());
                n.put("reports_to", c.reportsTo());
                n.put("manager", chart.managerOf(c.id()));
                if (c.authority() == null) {
                    n.putNull("authority");
                } else {
                    c.authority().forEach(n.putArray("authority")::add);
                }
            });
        });
        return out;
    }
}
