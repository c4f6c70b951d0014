package io.signalman.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * What {@code GET /ready} answers: ready only when every condition holds. Each part of
 * the server that can make it unfit to serve adds its own condition (a bundle is loaded, the
 * decision log writes, ...), so an orchestrator stops sending traffic, or restarts the process,
 * for any of them; the 503 names each condition that fails and why.
 */
public final class Readiness {

    /** One condition: its name, and why it fails now (null while it holds). Called on the event loop: cheap. */
    public record Condition(String name, Supplier<String> problem) {
    }

    private final List<Condition> conditions = new CopyOnWriteArrayList<>();

    /** Adds a condition; {@code problem} returns null while the server is fit to serve. */
    public Readiness add(String name, Supplier<String> problem) {
        conditions.add(new Condition(name, problem));
        return this;
    }

    /** Every failing condition as {@code {"condition", "problem"}}; empty when ready. */
    ArrayNode failing() {
        ArrayNode out = Json.array();
        for (Condition c : conditions) {
            String problem = c.problem().get();
            if (problem != null) {
                ObjectNode n = out.addObject();
                n.put("condition", c.name());
                n.put("problem", problem);
            }
        }
        return out;
    }
}
