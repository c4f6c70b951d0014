package io.signalman.broker;

import io.signalman.rulelang.RuleVocabulary;
import java.util.List;

/**
 * One agent's card in {@code rules/broker/org-chart.json}. {@code authority} lists the subtype
 * patterns the agent may send ({@code trade.*}, {@code *.report}, {@code pnl.report}); a card
 * without the list is unrestricted, and an empty list means the agent may send nothing.
 * {@link OrgChart} validates cards as it reads them (ids present and unique, managers known).
 */
@RuleVocabulary
public record AgentCard(String id, String name, String title, String role, String reportsTo, List<String> authority) {

    public AgentCard {
        authority = authority == null ? null : List.copyOf(authority);
    }

    public boolean restricted() {
        return authority != null;
    }

    /** Whether this agent may send a message of the given subtype. */
    public boolean mayPublish(String subtype) {
        if (authority == null) {
            return true;
        }
        for (String pattern : authority) {
            if (Glob.matches(pattern, subtype)) {
                return true;
            }
        }
        return false;
    }
}
