package io.signalman.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Questions one member asks every other over the event bus, each answered on the asked member's
 * worker (it may read its disk): what the workbench needs of the cluster's traffic, the members'
 * decision logs. Each member answers at {@code signalman.peer.<topic>.<node id>}; a member that
 * does not answer in time is listed as not having answered, never waited on longer.
 */
public final class Peers {

    static final String ADDRESS = "signalman.peer.";

    /** A member's answer: its cluster address, and its reply or why there is none. */
    public record Reply(String node, String body, String error) {

        public boolean answered() {
            return error == null;
        }
    }

    private final Cluster cluster;
    private final Vertx vertx;

    public Peers(Cluster cluster, Vertx vertx) {
        this.cluster = cluster;
        this.vertx = vertx;
    }

    /** This member's cluster address (how replies name it). */
    public String self() {
        return cluster.config().address();
    }

    /** Answers {@code topic} with {@code handler} (run on a worker) from now on. */
    public void answer(String topic, UnaryOperator<String> handler) {
        vertx.eventBus().consumer(ADDRESS + topic + "." + cluster.nodeId(), (Message<String> m) ->
                vertx.executeBlocking(() -> cluster.config().address() + "\n" + handler.apply(m.body()), false)
                        .onSuccess(m::reply).onFailure(err -> m.fail(500, String.valueOf(err.getMessage()))));
    }

    /** Asks every other member {@code question} on {@code topic}, waiting at most {@code timeoutMillis}. Blocking: a worker. */
    public List<Reply> ask(String topic, String question, long timeoutMillis) {
        List<String> others = new ArrayList<>(cluster.nodes());
        others.remove(cluster.nodeId());
        List<Future<Reply>> asked = new ArrayList<>();
        for (String id : others) {
            asked.add(vertx.eventBus().<String>request(ADDRESS + topic + "." + id, question,
                    new DeliveryOptions().setSendTimeout(timeoutMillis)).map(r -> {
                        String b = r.body();
                        int nl = b.indexOf('\n');
                        return new Reply(b.substring(0, nl), b.substring(nl + 1), null);
                    }).recover(err -> Future.succeededFuture(new Reply(id, null, String.valueOf(err.getMessage())))));
        }
        List<Reply> out = new ArrayList<>();
        for (Future<Reply> f : asked) {
            try {
                out.add(f.toCompletionStage().toCompletableFuture().get(timeoutMillis + 1_000, TimeUnit.MILLISECONDS));
            } catch (Exception e) {
                out.add(new Reply("?", null, e.toString()));
            }
        }
        return out;
    }
}
