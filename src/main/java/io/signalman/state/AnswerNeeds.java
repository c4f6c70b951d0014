package io.signalman.state;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.datadir.Manifest;
import java.util.function.Predicate;

/**
 * Whether what a stored idempotency answer's request made durable is in the recovered data
 * directory: a state change ({@code store, id, version}) in the state, a decision
 * record ({@code log, end}) in a log file that is whole at least that far (a compressed one was
 * whole when it rolled). {@link LocalAnswers} keeps an answer only when all of its needs are.
 */
public final class AnswerNeeds implements Predicate<JsonNode> {

    private final LocalState state;
    private final Manifest manifest;

    public AnswerNeeds(LocalState state, Manifest manifest) {
        this.state = state;
        this.manifest = manifest;
    }

    @Override
    public boolean test(JsonNode need) {
        if (need.has("store")) {
            return state.holds(need.path("store").asText(), need.path("id").asText(), need.path("version").asLong());
        }
        if (need.has("log")) {
            var files = manifest.files();
            String name = "decisions/" + need.path("log").asText();
            Manifest.Entry plain = files.get(name);
            return files.containsKey(name + ".gz") || plain != null && plain.closed() && plain.bytes() >= need.path("end").asLong();
        }
        return true;
    }
}
