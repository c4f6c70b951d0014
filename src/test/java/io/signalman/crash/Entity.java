package io.signalman.crash;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An FSM instance or a handoff conversation one load worker drives, and what its acknowledged
 * answers say it is now: the FSM's state, or the conversation's handoff count and the agent whose
 * turn comes next (null when it ended or paused: user input comes next). {@code uncertain} while
 * a request on it went unanswered (in flight at the kill, or a 5xx): its state is then read back,
 * not predicted.
 */
final class Entity {

    enum Kind { FSM, CONVERSATION }

    final Kind kind;
    final String id;
    boolean exists;
    String state;
    String agent;
    int count;
    boolean uncertain;

    Entity(Kind kind, String id) {
        this.kind = kind;
        this.id = id;
    }

    String path() {
        return kind == Kind.FSM ? "/v1/fsm/instances/" + id : "/v1/handoff/conversations/" + id;
    }

    /** Takes what a GET of it says as the truth (a 404: it does not exist). */
    void read(int status, JsonNode body) {
        exists = status == 200;
        uncertain = false;
        if (!exists) {
            return;
        }
        if (kind == Kind.FSM) {
            state = body.path("current_state").asText();
        } else {
            count = body.path("handoff_count").asInt();
            boolean running = "running".equals(body.path("status").asText()) && body.path("group").isNull();
            agent = running ? body.path("current_agent").asText(null) : null;
        }
    }

    /** What a GET must show when nothing on it is uncertain, as text for a report. */
    String expected() {
        return kind == Kind.FSM ? "state " + state : "handoff_count " + count;
    }

    /** Whether a GET's answer agrees with what the acknowledged answers say. */
    boolean agrees(int status, JsonNode body) {
        if (status != 200) {
            return !exists;
        }
        if (!exists) {
            return false;
        }
        return kind == Kind.FSM ? state.equals(body.path("current_state").asText())
                : count == body.path("handoff_count").asInt();
    }
}
