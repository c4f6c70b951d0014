package io.signalman.dispatch;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.engine.ReferenceData;
import io.signalman.json.Located;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agents dispatch may choose ({@code rules/dispatch/agents.json}), by normalized id, in file
 * order. Immutable. Default agent (seed 004): the one marked {@code default}, else the first
 * listed, else {@code main}.
 */
public final class AgentRoster {

    public static final String FILE = "dispatch/agents.json";
    public static final AgentRoster EMPTY = new AgentRoster(List.of());

    /** One agent as the file lists it; {@code model} is its primary (heavy) model, if not the pack's. */
    public record Agent(String id, String name, @JsonProperty("default") Boolean isDefault, String model) {

        boolean marked() {
            return Boolean.TRUE.equals(isDefault);
        }
    }

    private final Map<String, Agent> byId = new LinkedHashMap<>();
    private final String defaultAgent;

    public AgentRoster(List<Agent> agents) {
        agents.forEach(a -> byId.putIfAbsent(Ids.agent(a.id()), a));
        this.defaultAgent = agents.stream().filter(a -> a.marked() && !GoText.trim(a.id()).isEmpty()).findFirst()
                .or(() -> agents.stream().findFirst().filter(a -> !GoText.trim(a.id()).isEmpty()))
                .map(a -> Ids.agent(a.id())).orElse(Ids.DEFAULT_AGENT);
    }

    public String defaultAgent() {
        return defaultAgent;
    }

    public List<String> ids() {
        return List.copyOf(byId.keySet());
    }

    /**
     * The agent a rule's choice resolves to (seed 004): blank is the default agent; otherwise the
     * normalized id, when the roster lists it or lists no agent at all; otherwise the default.
     */
    public String resolve(String requested) {
        if (GoText.trim(requested).isEmpty()) {
            return defaultAgent;
        }
        String id = Ids.agent(requested);
        return byId.isEmpty() || byId.containsKey(id) ? id : defaultAgent;
    }

    /** The agent's own primary model, when its entry names one. */
    public Optional<String> model(String agentId) {
        return Optional.ofNullable(byId.get(agentId)).map(Agent::model).filter(m -> !m.isBlank());
    }

    /** Reads and validates the file; every problem is reported at its line. */
    public static AgentRoster read(String file, byte[] bytes) throws BundleException {
        List<Located<Agent>> located = ReferenceData.readList(file, bytes, "agents", Agent.class);
        List<BundleError> errors = new ArrayList<>();
        Map<String, Located<Agent>> seen = new LinkedHashMap<>();
        Located<Agent> firstDefault = null;
        for (Located<Agent> l : located) {
            Agent a = l.value();
            if (GoText.trim(a.id()).isEmpty()) {
                errors.add(new BundleError(file, l.line(), l.column(), "an agent needs an \"id\""));
                continue;
            }
            Located<Agent> twin = seen.putIfAbsent(Ids.agent(a.id()), l);
            if (twin != null) {
                errors.add(new BundleError(file, l.line(), l.column(), "agent \"" + a.id() + "\" is \"" + Ids.agent(a.id())
                        + "\" once normalized, like the agent at line " + twin.line()));
            }
            if (a.marked()) {
                if (firstDefault != null) {
                    errors.add(new BundleError(file, l.line(), l.column(), "agent \"" + a.id()
                            + "\" is marked default, and so is \"" + firstDefault.value().id() + "\" at line "
                            + firstDefault.line() + "; mark one"));
                } else {
                    firstDefault = l;
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new BundleException(errors);
        }
        return new AgentRoster(located.stream().map(Located::value).toList());
    }
}
