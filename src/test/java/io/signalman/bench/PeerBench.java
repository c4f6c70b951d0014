package io.signalman.bench;

import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.OrgChart;
import io.signalman.broker.RouteDecision;
import java.util.ArrayList;
import java.util.List;
import org.jeasy.rules.api.Facts;
import org.jeasy.rules.api.Rules;
import org.jeasy.rules.api.RulesEngine;
import org.jeasy.rules.api.RulesEngineParameters;
import org.jeasy.rules.core.DefaultRulesEngine;
import org.jeasy.rules.mvel.MVELRule;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Setup;

/**
 * A rules engine a user might pick instead, in the same run: the broker's rules
 * written for Easy Rules with MVEL expressions, first match by priority as the DRL's activation
 * group does, decided on the messages {@link BrokerBench} decides. The table compares its time
 * per decision with Signalman's {@code BrokerBench.drlDecision} and the hand-written if-chain.
 * {@link #decide} is also what the test of this benchmark checks against the seed's router.
 */
@Measurement(iterations = 5, time = 2)
public class PeerBench extends PerCallBench {

    /** The message as MVEL reads it: bean getters. */
    public record Msg(String from, String priority, String type, String subtype) {
        public String getFrom() {
            return from;
        }

        public String getPriority() {
            return priority;
        }

        public String getType() {
            return type;
        }

        public String getSubtype() {
            return subtype;
        }
    }

    /** Where the rules put their decision (Easy Rules' actions have no return value). */
    public static final class Out {
        private RouteDecision decision;

        /** Recipients de-duplicated, primary first, as the broker's decisions are. */
        public void route(List<String> primary, List<String> fanOut, boolean store, String priority, boolean converted) {
            java.util.Set<String> seen = new java.util.LinkedHashSet<>(primary);
            List<String> first = new ArrayList<>(seen);
            List<String> fan = new ArrayList<>();
            for (String agent : fanOut) {
                if (seen.add(agent)) {
                    fan.add(agent);
                }
            }
            decision = new RouteDecision(first, fan, store, priority, converted);
        }
    }

    private static final String[][] RULES = {
        {"critical messages go to openclaw and knox", "m.priority == 'critical'",
            "out.route(['openclaw', 'knox'], ['mission-control', 'sentinel'], true, null, false);"},
        {"messages outside the sender's authority are escalated", "m.type != 'escalation' && org.card(m.from).isPresent()"
            + " && !org.card(m.from).get().mayPublish(m.subtype)",
            "out.route([org.managerOf(m.from)], ['mission-control'], true, 'high', true);"},
        {"escalations go to the sender's manager", "m.type == 'escalation'",
            "out.route([org.managerOf(m.from)], ['mission-control'], true, 'high', false);"},
        {"trade messages go to VP Trading", "m.subtype.startsWith('trade.')",
            "out.route(['vp-trading'], ['cfo', 'mission-control'], m.subtype == 'trade.executed' || m.subtype == 'trade.completed',"
                + " null, false);"},
        {"signals go to every trading agent", "m.from == 'indecision-engine' && m.subtype == 'signal.published'",
            "out.route(org.getTradingAgents().isEmpty() ? ['foresight', 'sports-agent', 'political-agent', 'perpetuals-bot']"
                + " : org.getTradingAgents(), [], false, 'high', false);"},
        {"service messages go to VP Engineering", "m.subtype.startsWith('service.')",
            "out.route(['vp-engineering'], m.subtype == 'service.offline' ? ['sentinel', 'mission-control', 'openclaw']"
                + " : ['sentinel', 'mission-control'], false, null, false);"},
        {"content messages go to VP Content", "m.subtype.startsWith('content.')",
            "out.route(['vp-content'], ['mission-control'], m.subtype == 'content.published', null, false);"},
        {"memory commits go to the memory service only", "m.subtype == 'memory.committed'",
            "out.route(['memory-service'], [], false, null, false);"},
        {"reports go to the sender's manager", "m.subtype.endsWith('.report')",
            "out.route([org.managerOf(m.from)], ['advisory-system'], false, null, false);"},
        {"tool messages go to the Sr. Director of Tooling", "m.subtype.startsWith('tool.')",
            "out.route(['sr-director-tooling'], [], false, 'low', false);"},
        {"everything else goes to the sender's manager", "true",
            "out.route([org.managerOf(m.from)], ['mission-control'], false, null, false);"},
    };

    private RulesEngine engine;
    private Rules rules;
    private OrgChart org;
    private List<BrokerMessage> messages;
    private int next;

    @Setup
    public void setUp() {
        org = TestBundles.shipped().requirePack("broker").reference().as(OrgChart.class);
        engine = new DefaultRulesEngine(new RulesEngineParameters().skipOnFirstAppliedRule(true));
        rules = new Rules();
        for (int i = 0; i < RULES.length; i++) {
            rules.register(new MVELRule().name(RULES[i][0]).priority(i).when(RULES[i][1]).then(RULES[i][2]));
        }
        messages = BrokerBench.MESSAGES;
    }

    /** One decision with Easy Rules. */
    public RouteDecision decide(BrokerMessage m) {
        Facts facts = new Facts();
        facts.put("m", new Msg(m.envelope().fromAgent(), m.envelope().priority(), m.type(), m.subtype()));
        facts.put("org", org);
        Out out = new Out();
        facts.put("out", out);
        engine.fire(rules, facts);
        return out.decision;
    }

    @Benchmark
    public RouteDecision easyRules() {
        BrokerMessage m = messages.get(next);
        next = (next + 1) % messages.size();
        return decide(m);
    }
}
