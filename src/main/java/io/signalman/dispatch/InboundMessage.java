package io.signalman.dispatch;

import java.util.List;

/**
 * The wire form of {@code POST /v1/dispatch}: an inbound message as a channel adapter
 * reports it, before any normalization. Every field but {@code channel} is optional.
 *
 * @param id        an optional client message id, carried into the decision log
 * @param mentioned whether the bot was mentioned; absent means false
 * @param message   the text of the turn, read by the model-routing features
 * @param history   the conversation so far, oldest first
 */
public record InboundMessage(String id, String channel, String account, Place space, Place chat, String topic,
                             String sender, Boolean mentioned, String message, List<Turn> history) {

    public InboundMessage {
        history = history == null ? List.of() : List.copyOf(history);
    }

    public boolean isMentioned() {
        return Boolean.TRUE.equals(mentioned);
    }

    public String text() {
        return message == null ? "" : message;
    }

    /** A workspace, guild, group or direct chat: its kind as the channel names it, and its id. */
    public record Place(String type, String id) {
    }

    /** One earlier entry of the conversation; only the tool-call count feeds model routing. */
    public record Turn(String role, Integer toolCalls) {

        public int calls() {
            return toolCalls == null ? 0 : toolCalls;
        }
    }
}
