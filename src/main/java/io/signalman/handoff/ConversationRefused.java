package io.signalman.handoff;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.Refused;
import io.signalman.json.Json;
import java.util.List;
import java.util.Locale;

/**
 * The conversation requests the router refuses, each with a precise reason: a {@link Refused}
 * whose kind gives the status (404 for no such conversation, 409 for the rest), whose code is
 * the reason's, and whose details are the conversation as it stood.
 */
public final class ConversationRefused {

    public enum Reason {
        /** No conversation has this id: 404. */
        NOT_FOUND("conversation_not_found"),
        /** A conversation with the requested id exists already: 409. */
        ALREADY_EXISTS("conversation_exists"),
        /** The turn is from an agent the conversation is not waiting for: 409. */
        UNEXPECTED_AGENT("unexpected_agent"),
        /** The conversation terminated, ended or paused; it takes user input, not turns: 409. */
        NOT_RUNNING("conversation_not_running"),
        /** The conversation's crew is no longer in the rules: 409. */
        CREW_GONE("crew_not_in_rules");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private ConversationRefused() {
    }

    /** The refusal for {@code reason}; {@code state} is the conversation as it stood (null when there is none). */
    public static Refused of(Reason reason, String message, ConversationState state) {
        Refused.Kind kind = reason == Reason.NOT_FOUND ? Refused.Kind.NOT_FOUND : Refused.Kind.CONFLICT;
        return new Refused(kind, reason.code(), message, state == null ? null : details(state));
    }

    private static ObjectNode details(ConversationState state) {
        ObjectNode details = Json.object();
        details.put("status", state.status().name().toLowerCase(Locale.ROOT));
        details.put("current_agent", state.currentAgent());
        details.put("group", state.group());
        state.reported().forEach(r -> details.withArray("reported").add(r.agent()));
        return details;
    }

    /** Who may take the next turn: the current agent, or the running group's members that have not reported. */
    public static List<String> expected(Crew.Group group, ConversationState s) {
        if (group != null) {
            return group.agents().stream().filter(a -> !s.hasReported(a)).toList();
        }
        // A group the crew no longer has waits for no one; its starter (the current agent) has spoken.
        return s.group() != null || s.currentAgent() == null ? List.of() : List.of(s.currentAgent());
    }
}
