package io.signalman.handoff;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A crew as the router sees it: agents in order with their behaviour, parallel groups,
 * the entry agent and {@code max_handoffs}. Immutable and validated by {@link CrewReader}.
 */
public record Crew(String name, String entryAgent, int maxHandoffs, List<Agent> agents, Map<String, Group> groups) {

    public static final int DEFAULT_MAX_HANDOFFS = 5;

    /** One agent and how the router treats it when no signal decides. */
    public record Agent(String id, boolean isTerminal, List<String> handoffTargets, boolean waitForSignal) {
        public Agent {
            handoffTargets = handoffTargets == null ? List.of() : List.copyOf(handoffTargets);
        }
    }

    /**
     * Agents the orchestrator runs at once. {@code timeoutSeconds} and {@code waitForAll} are the
     * orchestrator's to honour (the router has no clock); they travel in the {@code parallel} step.
     */
    public record Group(String id, List<String> agents, String nextAgent, int timeoutSeconds, boolean waitForAll) {
        public Group {
            agents = List.copyOf(agents);
        }
    }

    public Crew {
        agents = List.copyOf(agents);
        groups = Map.copyOf(groups);
    }

    public Optional<Agent> agent(String id) {
        return agents.stream().filter(a -> a.id().equals(id)).findFirst();
    }

    public Optional<Group> group(String id) {
        return Optional.ofNullable(groups.get(id));
    }

    public boolean knows(String agentOrGroup) {
        return agent(agentOrGroup).isPresent() || groups.containsKey(agentOrGroup);
    }
}
