package io.signalman.handoff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the router remembers about one conversation between turns: its crew, whether it
 * runs, who is expected to speak (the current agent, or the members of a running parallel group
 * that have not reported yet), and the handoffs counted since the last user input.
 *
 * @param reported members of the running group that have reported, with where each one's routing
 *                 signal pointed (null route when it gave none)
 */
public record ConversationState(String crew, Status status, String currentAgent, String group, List<Report> reported,
                                int handoffCount) {

    /** Running takes turns; the others wait for user input. */
    public enum Status { RUNNING, PAUSED, TERMINATED, ENDED }

    /** One member's report inside a parallel group. */
    public record Report(String agent, String route) {
    }

    public ConversationState {
        Objects.requireNonNull(crew, "crew");
        Objects.requireNonNull(status, "status");
        reported = List.copyOf(reported);
    }

    public static ConversationState start(Crew crew) {
        return new ConversationState(crew.name(), Status.RUNNING, crew.entryAgent(), null, List.of(), 0);
    }

    public boolean hasReported(String agent) {
        return reported.stream().anyMatch(r -> r.agent().equals(agent));
    }

    public ConversationState withReport(Report r) {
        List<Report> more = new ArrayList<>(reported);
        more.add(r);
        return new ConversationState(crew, status, currentAgent, group, more, handoffCount);
    }

    public ObjectNode toJson() {
        ObjectNode n = Json.object();
        n.put("crew", crew);
        n.put("status", status.name().toLowerCase(java.util.Locale.ROOT));
        n.put("current_agent", currentAgent);
        n.put("group", group);
        var arr = n.putArray("reported");
        for (Report r : reported) {
            arr.addObject().put("agent", r.agent()).put("route", r.route());
        }
        n.put("handoff_count", handoffCount);
        return n;
    }

    /** Reads {@code state_before} back; a wrong shape names the field. */
    public static ConversationState fromJson(JsonNode n) throws InputException {
        if (n == null || !n.isObject()) {
            throw new InputException("state_before", "a handoff decision needs the conversation state it was made from");
        }
        String crew = n.path("crew").asText(null);
        if (crew == null) {
            throw new InputException("state_before.crew", "state_before.crew is required");
        }
        Status status;
        try {
            status = Status.valueOf(n.path("status").asText("running").toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InputException("state_before.status", "state_before.status must be running, paused, terminated or ended");
        }
        List<Report> reported = new ArrayList<>();
        for (JsonNode r : n.path("reported")) {
            reported.add(new Report(r.path("agent").asText(), r.path("route").isNull() ? null : r.path("route").asText(null)));
        }
        return new ConversationState(crew, status, text(n, "current_agent"), text(n, "group"), reported,
                n.path("handoff_count").asInt(0));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
