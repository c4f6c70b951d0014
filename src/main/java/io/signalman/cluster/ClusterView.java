package io.signalman.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code GET /v1/cluster}: every member, its addresses and the rules revision it serves,
 * asked of the member itself over the event bus ({@code signalman.cluster.node.<node id>}), so a
 * member that answers reports what it really runs. The revision most members serve is the
 * cluster's; a member serving another is flagged {@code revision_differs}, one that does not
 * answer within {@link #ASK_MILLIS} is flagged {@code reachable: false}. A server that is not
 * clustered shows itself alone. Runs on the event loop; nothing in it blocks.
 */
public final class ClusterView {

    /** The address prefix each node answers its own status on. */
    public static final String NODE_ADDRESS = "signalman.cluster.node.";
    static final long ASK_MILLIS = 2_000;

    private final Cluster cluster;
    private volatile Supplier<ObjectNode> self = ClusterView::notServing;
    private MessageConsumer<String> consumer;

    private ClusterView(Cluster cluster) {
        this.cluster = cluster;
    }

    /** The view of a server that is not clustered: itself only. */
    public static ClusterView standalone() {
        return new ClusterView(null);
    }

    public static ClusterView of(Cluster cluster) {
        return new ClusterView(cluster);
    }

    /**
     * Starts answering other members' questions with {@code status}, this node's own status
     * ({@code http}, {@code rules_revision}, {@code rules_loaded_at}); called once the node serves.
     */
    public void serve(Vertx vertx, Supplier<ObjectNode> status) {
        this.self = status;
        if (cluster != null) {
            consumer = vertx.eventBus().consumer(NODE_ADDRESS + cluster.nodeId(),
                    (Message<String> m) -> m.reply(Json.write(status())));
        }
    }

    /** This node's status, with its node id and cluster address. */
    private ObjectNode status() {
        ObjectNode s = self.get().deepCopy();
        if (cluster != null) {
            s.put("node_id", cluster.nodeId());
            s.put("cluster_address", cluster.config().address());
        }
        return s;
    }

    public Future<ObjectNode> describe(Vertx vertx) {
        if (cluster == null) {
            ObjectNode me = status().put("self", true).put("reachable", true);
            return Future.succeededFuture(summary(false, null, List.of(me), me));
        }
        List<Future<ObjectNode>> asked = new ArrayList<>();
        for (String node : cluster.nodes()) {
            asked.add(ask(vertx, node));
        }
        Future<Boolean> safe = safe(vertx);
        List<Future<?>> everything = new ArrayList<>(asked);
        everything.add(safe);
        return Future.all(everything).map(all -> {
            List<ObjectNode> members = new ArrayList<>();
            ObjectNode me = null;
            for (Future<ObjectNode> f : asked) {
                members.add(f.result());
                if (f.result().path("self").asBoolean()) {
                    me = f.result();
                }
            }
            return summary(true, safe.result(), members, me);
        });
    }

    /**
     * Waits, at most {@code maxMillis}, until every reachable member serves {@code revision}; then
     * lists each member ({@code node}, {@code http}, {@code revision}, {@code loaded_at},
     * {@code serves}: whether it serves that revision; {@code revision_unavailable} when it cannot
     * build it). Blocking: a worker thread. Alone, this node only.
     */
    public com.fasterxml.jackson.databind.node.ArrayNode awaitRevision(Vertx vertx, String revision, long maxMillis) {
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        ObjectNode view = null;
        while (true) {
            try {
                view = describe(vertx).toCompletionStage().toCompletableFuture().get(ASK_MILLIS + 1_000,
                        java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                // asked again below, until the deadline
            }
            boolean all = view != null;
            if (view != null) {
                for (JsonNode m : view.path("members")) {
                    all &= !m.path("reachable").asBoolean() || revision.equals(m.path("rules_revision").asText(null))
                            || m.hasNonNull("revision_unavailable");
                }
            }
            if (all || System.nanoTime() > deadline) {
                break;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        com.fasterxml.jackson.databind.node.ArrayNode out = Json.array();
        if (view != null) {
            for (JsonNode m : view.path("members")) {
                ObjectNode o = out.addObject();
                o.put("node", m.path("cluster_address").asText(m.path("node_id").asText()));
                o.put("http", m.path("http").asText(null));
                o.put("reachable", m.path("reachable").asBoolean());
                o.put("revision", m.path("rules_revision").asText(null));
                o.put("loaded_at", m.path("rules_loaded_at").asText(null));
                o.put("serves", revision.equals(m.path("rules_revision").asText(null)));
                if (m.hasNonNull("revision_unavailable")) {
                    o.put("revision_unavailable", m.get("revision_unavailable").asText());
                }
            }
        }
        return out;
    }

    private Future<ObjectNode> ask(Vertx vertx, String id) {
        if (id.equals(cluster.nodeId())) {
            return Future.succeededFuture(status().put("self", true).put("reachable", true));
        }
        return vertx.eventBus().<String>request(NODE_ADDRESS + id, "status", new DeliveryOptions().setSendTimeout(ASK_MILLIS))
                .map(reply -> {
                    try {
                        JsonNode n = Json.parse(reply.body());
                        return ((ObjectNode) n).put("self", false).put("reachable", true);
                    } catch (InputException | ClassCastException e) {
                        throw new IllegalStateException("unreadable status: " + e.getMessage(), e);
                    }
                })
                .recover(err -> Future.succeededFuture(Json.object().put("node_id", id)
                        .put("self", false).put("reachable", false).put("error", String.valueOf(err.getMessage()))));
    }

    /** Whether backups are in sync; asks the other members, so off the event loop and bounded in time. */
    private Future<Boolean> safe(Vertx vertx) {
        Promise<Boolean> p = Promise.promise();
        long timer = vertx.setTimer(ASK_MILLIS, t -> p.tryComplete(false));
        vertx.executeBlocking(cluster::safe, false).onComplete(r -> {
            vertx.cancelTimer(timer);
            p.tryComplete(r.succeeded() && r.result());
        });
        return p.future();
    }

    /** The cluster's revision (the one most members serve; on a tie, this node's) and each member's flags. */
    static ObjectNode summary(boolean clustered, Boolean safe, List<ObjectNode> members, ObjectNode me) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (ObjectNode m : members) {
            if (m.path("reachable").asBoolean() && m.hasNonNull("rules_revision")) {
                counts.merge(m.get("rules_revision").asText(), 1, Integer::sum);
            }
        }
        String mine = me == null ? null : me.path("rules_revision").asText(null);
        String revision = mine;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (revision == null || e.getValue() > counts.getOrDefault(revision, 0)) {
                revision = e.getKey();
            }
        }
        ObjectNode out = Json.object();
        out.put("clustered", clustered);
        out.put("node_id", me == null ? null : me.path("node_id").asText(null));
        if (safe != null) {
            out.put("safe", safe);
        }
        out.put("rules_revision", revision);
        boolean consistent = true;
        ArrayNode list = out.putArray("members");
        for (ObjectNode m : members) {
            boolean reachable = m.path("reachable").asBoolean();
            boolean differs = reachable && !m.path("rules_revision").asText("").equals(revision);
            m.put("revision_differs", differs);
            consistent &= reachable && !differs;
            list.add(m);
        }
        out.put("consistent", consistent);
        out.set("revisions", Json.MAPPER.valueToTree(counts));
        return out;
    }

    private static ObjectNode notServing() {
        return Json.object().put("status", "starting");
    }

    public void close() {
        if (consumer != null) {
            consumer.unregister();
        }
    }
}
