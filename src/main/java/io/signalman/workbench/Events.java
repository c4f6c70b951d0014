package io.signalman.workbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import io.signalman.people.AuditLog;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@code GET /workbench/api/events}: a server-sent event stream of what makes a workbench page
 * stale: activations (rollbacks, reverts, quarantines, promotions), review requests and verdicts
 * (from the audit log: in a cluster, every member's), draft saves and discards on this node, and
 * the running trials' figures every few seconds. The page follows it (a fetch stream, which can
 * carry the token), so the header, the lists and the open draft update without a reload. At most
 * {@link #MAX_LISTENERS} streams at once (503 past that); a comment every 15 s keeps idle
 * connections open through proxies.
 */
final class Events {

    static final int MAX_LISTENERS = 64;
    private static final Set<String> ACTIVATIONS = Set.of("activated", "rolled_back", "reverted", "quarantined", "trial_promoted");
    private static final Set<String> VERDICTS = Set.of("draft_approved", "draft_rejected", "review_requested");
    private static final Set<String> TRIALS = Set.of("trial_started", "trial_changed", "trial_stopped", "trial_aborted");

    private final Map<HttpServerResponse, Boolean> listeners = new ConcurrentHashMap<>();
    private volatile Supplier<JsonNode> trials = Json::array;
    private final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();

    Events(AuditLog audit) {
        audit.onEntry(this::entry);
    }

    void trials(Supplier<JsonNode> running) {
        this.trials = running;
    }

    /** Starts the timers: trial figures every 3 s while a stream is open, a keep-alive comment every 15 s. */
    void start(Vertx vertx, io.vertx.core.WorkerExecutor workers) {
        if (!started.compareAndSet(false, true)) {
            return; // routed on the admin listener too: one set of timers
        }
        vertx.setPeriodic(3_000, t -> {
            if (!listeners.isEmpty()) {
                workers.executeBlocking(() -> trials.get(), false).onSuccess(running -> {
                    if (!running.isEmpty()) {
                        send("trials", Json.object().set("trials", running));
                    }
                });
            }
        });
        vertx.setPeriodic(15_000, t -> listeners.keySet().forEach(r -> r.write(": keep-alive\n\n")));
    }

    void handle(RoutingContext ctx) {
        if (listeners.size() >= MAX_LISTENERS) {
            Replies.error(ctx, 503, "too_many_streams", "this server follows " + MAX_LISTENERS + " event streams already");
            return;
        }
        HttpServerResponse r = ctx.response();
        r.setChunked(true).putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-store");
        r.write(": following activations, reviews, drafts and trials\n\n");
        listeners.put(r, true);
        r.closeHandler(v -> listeners.remove(r));
        r.exceptionHandler(e -> listeners.remove(r));
    }

    /** A draft was saved, discarded or changed its status on this node. */
    void draft(String id) {
        send("draft", Json.object().put("draft", id));
    }

    private void entry(JsonNode e) {
        String action = e.path("action").asText();
        String type = ACTIVATIONS.contains(action) ? "activation" : VERDICTS.contains(action) ? "review"
                : TRIALS.contains(action) ? "trial" : null;
        if (type == null) {
            return;
        }
        ObjectNode n = Json.object().put("action", action).put("user", e.path("user").asText()).put("at", e.path("at").asText());
        for (String f : new String[] {"draft", "trial", "new_revision", "activation"}) {
            if (e.hasNonNull(f)) {
                n.set(f, e.get(f));
            }
        }
        send(type, n);
    }

    private void send(String type, ObjectNode data) {
        if (listeners.isEmpty()) {
            return;
        }
        String frame = "event: " + type + "\ndata: " + Json.write(data) + "\n\n";
        for (HttpServerResponse r : listeners.keySet()) {
            if (r.writeQueueFull()) {
                // A reader that does not keep up is let go rather than buffered without bound.
                listeners.remove(r);
                r.reset();
            } else {
                r.write(frame);
            }
        }
    }
}
