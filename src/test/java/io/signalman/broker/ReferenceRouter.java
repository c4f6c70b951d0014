package io.signalman.broker;

import java.util.ArrayList;
import java.util.List;

/**
 * The seed's router written by hand as a plain if-chain (seed 003, with the authority rule
 * and org-chart registry). It is the oracle the DRL is checked against, property by property and
 * fixture by fixture, and the floor the benchmarks compare with. It shares nothing with the DRL.
 */
public final class ReferenceRouter {

    private static final List<String> FALLBACK_TRADERS = List.of("foresight", "sports-agent", "political-agent", "perpetuals-bot");

    private final OrgChart org;

    public ReferenceRouter(OrgChart org) {
        this.org = org;
    }

    public RouteDecision route(BrokerMessage m) {
        String from = m.envelope().fromAgent();
        String subtype = m.subtype();
        if ("critical".equals(m.envelope().priority())) {
            return RouteDecision.of(List.of("openclaw", "knox"), List.of("mission-control", "sentinel"), true, null, false);
        }
        boolean outside = org.card(from).map(c -> !c.mayPublish(subtype)).orElse(false);
        if ("escalation".equals(m.type()) || outside) {
            boolean converted = !"escalation".equals(m.type());
            return RouteDecision.of(List.of(org.managerOf(from)), List.of("mission-control"), true, "high", converted);
        }
        if (subtype.startsWith("trade.")) {
            boolean store = subtype.equals("trade.executed") || subtype.equals("trade.completed");
            return RouteDecision.of(List.of("vp-trading"), List.of("cfo", "mission-control"), store, null, false);
        }
        if ("indecision-engine".equals(from) && "signal.published".equals(subtype)) {
            List<String> traders = org.getTradingAgents().isEmpty() ? FALLBACK_TRADERS : org.getTradingAgents();
            return RouteDecision.of(traders, List.of(), false, "high", false);
        }
        if (subtype.startsWith("service.")) {
            List<String> fan = new ArrayList<>(List.of("sentinel", "mission-control"));
            if (subtype.equals("service.offline")) {
                fan.add("openclaw");
            }
            return RouteDecision.of(List.of("vp-engineering"), fan, false, null, false);
        }
        if (subtype.startsWith("content.")) {
            return RouteDecision.of(List.of("vp-content"), List.of("mission-control"), subtype.equals("content.published"), null, false);
        }
        if (subtype.equals("memory.committed")) {
            return RouteDecision.of(List.of("memory-service"), List.of(), false, null, false);
        }
        if (subtype.endsWith(".report")) {
            return RouteDecision.of(List.of(org.managerOf(from)), List.of("advisory-system"), false, null, false);
        }
        if (subtype.startsWith("tool.")) {
            return RouteDecision.of(List.of("sr-director-tooling"), List.of(), false, "low", false);
        }
        return RouteDecision.of(List.of(org.managerOf(from)), List.of("mission-control"), false, null, false);
    }
}
