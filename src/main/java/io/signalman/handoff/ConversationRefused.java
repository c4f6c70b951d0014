package io.signalman.handoff;

import java.util.List;

/**
 * A conversation request the router refuses, as a value with a precise reason; the HTTP layer
 * maps each reason to its status in one place ({@code ApiError.from}).
 *
 * @param state the conversation as it stood, for the error's details (null when there is none)
 */
public final class ConversationRefused extends RuntimeException {

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

    private final Reason reason;
    private final transient ConversationState state;

    public ConversationRefused(Reason reason, String message, ConversationState state) {
        super(message, null, false, false);
        this.reason = reason;
        this.state = state;
    }

    public Reason reason() {
        return reason;
    }

    public ConversationState state() {
        return state;
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
