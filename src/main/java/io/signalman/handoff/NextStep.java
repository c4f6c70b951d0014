package io.signalman.handoff;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;

/**
 * What the orchestrator does next: run the same agent again, run another agent, run a
 * parallel group (or keep waiting for its {@code pending} members), or stop: terminate on a
 * signal, pause for user input, end.
 */
public record NextStep(Type type, String agent, Crew.Group group, List<String> pending, boolean limitReached) {

    public enum Type { RERUN, AGENT, PARALLEL, TERMINATE, PAUSE, END }

    public NextStep {
        pending = pending == null ? List.of() : List.copyOf(pending);
    }

    static NextStep of(Type type, String agent) {
        return new NextStep(type, agent, null, List.of(), false);
    }

    static NextStep parallel(Crew.Group group, List<String> pending) {
        return new NextStep(Type.PARALLEL, null, group, pending, false);
    }

    static NextStep limit() {
        return new NextStep(Type.END, null, null, List.of(), true);
    }

    /** True for the steps after which the conversation takes no turn until user input. */
    public boolean stops() {
        return type == Type.TERMINATE || type == Type.PAUSE || type == Type.END;
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("type", type.name().toLowerCase(java.util.Locale.ROOT));
        n.put("agent", agent);
        if (group == null) {
            n.putNull("group");
        } else {
            ObjectNode g = n.putObject("group");
            g.put("id", group.id());
            group.agents().forEach(g.putArray("agents")::add);
            g.put("next_agent", group.nextAgent());
            g.put("timeout_seconds", group.timeoutSeconds());
            g.put("wait_for_all", group.waitForAll());
            pending.forEach(g.putArray("pending")::add);
        }
        if (limitReached) {
            n.put("limit_reached", true);
        }
        return n;
    }
}
