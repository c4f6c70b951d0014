package io.signalman.handoff;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.signalman.engine.BundleError;
import io.signalman.engine.BundleException;
import io.signalman.json.Json;
import io.signalman.json.JsonLines;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one crew file ({@code rules/handoff/<crew>.json}) and checks it: every problem is a
 * {@link BundleError} at the line of the value that is wrong, and all of them are reported.
 */
public final class CrewReader {

    /** The file's shape, as bound by the strict mapper (unknown fields refused). */
    record CrewFile(String name, String entryAgent, Integer maxHandoffs, List<AgentSpec> agents,
                    List<GroupSpec> parallelGroups) {
    }

    record AgentSpec(String id, Boolean isTerminal, List<String> handoffTargets, Boolean waitForSignal) {
    }

    record GroupSpec(String id, List<String> agents, String nextAgent, Integer timeoutSeconds, Boolean waitForAll) {
    }

    private CrewReader() {
    }

    public static Crew read(String file, byte[] bytes) throws BundleException {
        CrewFile f;
        try {
            f = Json.MAPPER.readValue(bytes, CrewFile.class);
        } catch (UnrecognizedPropertyException e) {
            throw new BundleException(new BundleError(file, e.getLocation().getLineNr(), e.getLocation().getColumnNr(),
                    "unknown field \"" + e.getPropertyName() + "\"; known fields are " + e.getKnownPropertyIds()));
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            int col = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
            throw new BundleException(new BundleError(file, line, col, "malformed crew: " + e.getOriginalMessage()));
        } catch (IOException e) {
            throw new BundleException(new BundleError(file, 0, 0, "cannot read: " + e.getMessage()));
        }
        return new CrewReader.Check(file, JsonLines.of(bytes)).crew(f);
    }

    /** One file's validation: collects every error before refusing. */
    private static final class Check {
        private final String file;
        private final JsonLines lines;
        private final List<BundleError> errors = new ArrayList<>();

        Check(String file, JsonLines lines) {
            this.file = file;
            this.lines = lines;
        }

        private void error(String path, String message) {
            errors.add(new BundleError(file, lines.line(path), 1, message));
        }

        Crew crew(CrewFile f) throws BundleException {
            if (f.name() == null || f.name().isBlank()) {
                error("", "a crew needs a \"name\"");
            }
            int max = f.maxHandoffs() == null ? Crew.DEFAULT_MAX_HANDOFFS : f.maxHandoffs();
            if (max < 1) {
                error("max_handoffs", "max_handoffs must be at least 1, not " + max);
            }
            List<Crew.Agent> agents = agents(f.agents() == null ? List.of() : f.agents());
            Set<String> ids = new HashSet<>();
            agents.forEach(a -> ids.add(a.id()));
            Map<String, Crew.Group> groups = groups(f.parallelGroups() == null ? List.of() : f.parallelGroups(), ids);
            if (f.entryAgent() == null || !ids.contains(f.entryAgent())) {
                error("entry_agent", "entry_agent \"" + f.entryAgent() + "\" is not an agent of the crew " + ids);
            }
            for (int i = 0; i < agents.size(); i++) {
                List<String> targets = agents.get(i).handoffTargets();
                for (int j = 0; j < targets.size(); j++) {
                    if (!ids.contains(targets.get(j)) && !groups.containsKey(targets.get(j))) {
                        error("agents[" + i + "].handoff_targets[" + j + "]", "agent \"" + agents.get(i).id()
                                + "\" hands off to \"" + targets.get(j) + "\", which is no agent or group of the crew");
                    }
                }
            }
            if (!errors.isEmpty()) {
                throw new BundleException(errors);
            }
            return new Crew(f.name(), f.entryAgent(), max, agents, groups);
        }

        private List<Crew.Agent> agents(List<AgentSpec> specs) {
            if (specs.isEmpty()) {
                error("agents", "a crew needs at least one agent in \"agents\"");
            }
            List<Crew.Agent> out = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < specs.size(); i++) {
                AgentSpec s = specs.get(i);
                String at = "agents[" + i + "]";
                if (s.id() == null || s.id().isBlank()) {
                    error(at, "an agent needs an \"id\"");
                    continue;
                }
                if (!seen.add(s.id())) {
                    error(at + ".id", "agent \"" + s.id() + "\" is listed twice");
                    continue;
                }
                out.add(new Crew.Agent(s.id(), Boolean.TRUE.equals(s.isTerminal()), s.handoffTargets(),
                        Boolean.TRUE.equals(s.waitForSignal())));
            }
            return out;
        }

        private Map<String, Crew.Group> groups(List<GroupSpec> specs, Set<String> agentIds) {
            Map<String, Crew.Group> out = new LinkedHashMap<>();
            for (int i = 0; i < specs.size(); i++) {
                GroupSpec g = specs.get(i);
                String at = "parallel_groups[" + i + "]";
                if (g.id() == null || g.id().isBlank()) {
                    error(at, "a parallel group needs an \"id\"");
                    continue;
                }
                if (agentIds.contains(g.id()) || out.containsKey(g.id())) {
                    error(at + ".id", "parallel group \"" + g.id() + "\" has the id of another agent or group;"
                            + " a signal's target must name exactly one");
                    continue;
                }
                List<String> members = g.agents() == null ? List.of() : g.agents();
                if (members.isEmpty()) {
                    error(at + ".agents", "parallel group \"" + g.id() + "\" has no agents");
                }
                for (int j = 0; j < members.size(); j++) {
                    if (!agentIds.contains(members.get(j))) {
                        error(at + ".agents[" + j + "]", "parallel group \"" + g.id() + "\" lists \"" + members.get(j)
                                + "\", which is no agent of the crew");
                    } else if (members.indexOf(members.get(j)) != j) {
                        error(at + ".agents[" + j + "]", "parallel group \"" + g.id() + "\" lists \"" + members.get(j)
                                + "\" twice");
                    }
                }
                if (g.nextAgent() != null && !agentIds.contains(g.nextAgent())) {
                    error(at + ".next_agent", "parallel group \"" + g.id() + "\" moves on to \"" + g.nextAgent()
                            + "\", which is no agent of the crew");
                }
                int timeout = g.timeoutSeconds() == null ? 30 : g.timeoutSeconds();
                if (timeout < 1) {
                    error(at + ".timeout_seconds", "timeout_seconds must be at least 1, not " + timeout);
                }
                out.put(g.id(), new Crew.Group(g.id(), members, g.nextAgent(), timeout, !Boolean.FALSE.equals(g.waitForAll())));
            }
            return out;
        }
    }
}
