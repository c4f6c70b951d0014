package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.packs.Packs;
import io.signalman.engine.DecisionPack;
import io.signalman.json.Json;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/** What {@link HttpLoad} sends: the endpoints, their bodies, and the FSM instances and conversations it acts on. */
final class LoadTargets {

    /** Instances (FSM) and conversations (handoff) the stateful targets spread their requests over. */
    static final int STATEFUL_KEYS = 4096;

    private LoadTargets() {
    }

    /**
     * One endpoint under load: request number {@code seq} (counted across every phase) goes to
     * {@code path(seq)} with {@code body(seq)}.
     */
    record Target(String name, HttpMethod method, LongFunction<String> path, LongFunction<Buffer> body,
                  AtomicLong seq) {
        Target(String name, HttpMethod method, String path, List<Buffer> bodies) {
            this(name, method, i -> path, i -> bodies.get((int) (i % bodies.size())), new AtomicLong());
        }
    }

    @SuppressWarnings("unchecked")
    static List<Buffer> bodies(String pack) {
        DecisionPack<Object, Object> p = (DecisionPack<Object, Object>) Packs.named(pack).orElseThrow();
        List<Buffer> out = new ArrayList<>();
        for (Object input : HistoryInputs.of(pack)) {
            // A message id is an idempotency key: repeats would be replays, not decisions.
            var json = (ObjectNode) p.inputJson(input);
            json.remove("id");
            out.add(Buffer.buffer(Json.bytes(json)));
        }
        return out;
    }

    /**
     * FSM actions on {@link #STATEFUL_KEYS} instances of the transaction machine, each taking
     * begin, then an approved commit, round and round: request {@code seq} acts on instance
     * {@code seq % keys}, so two requests on one instance are thousands of requests apart and
     * never race (a race would be answered 409, and the load fails on any answer above 299).
     */
    static Target fsmActions() {
        Buffer begin = Buffer.buffer("{\"action\": \"begin\"}");
        Buffer commit = Buffer.buffer("{\"action\": \"commit\", \"payload\": {\"approved\": true}}");
        return new Target("POST /v1/fsm/.../actions", HttpMethod.POST,
                i -> "/v1/fsm/instances/load-" + i % STATEFUL_KEYS + "/actions",
                i -> (i / STATEFUL_KEYS) % 2 == 0 ? begin : commit, new AtomicLong());
    }

    /**
     * Handoff turns on {@link #STATEFUL_KEYS} support conversations: the entry agent reports a
     * turn with a tool call, which reruns it, so a conversation takes turns forever
     * without reaching its handoff limit.
     */
    static Target handoffTurns() {
        Buffer turn = Buffer.buffer("{\"agent\": \"triage\", \"response\": \"looking the order up\", \"tool_calls\": 1}");
        return new Target("POST /v1/handoff/.../turns", HttpMethod.POST,
                i -> "/v1/handoff/conversations/load-" + i % STATEFUL_KEYS + "/turns", i -> turn, new AtomicLong());
    }

    /** Creates the FSM instances and handoff conversations the stateful targets act on. */
    static void createStatefulKeys(HttpClientAgent client, int port) {
        List<Future<Integer>> created = new ArrayList<>();
        for (int k = 0; k < STATEFUL_KEYS; k++) {
            created.add(post(client, port, "/v1/fsm/instances", "{\"id\": \"load-" + k + "\", \"machine\": \"transaction\"}"));
            created.add(post(client, port, "/v1/handoff/conversations", "{\"id\": \"load-" + k + "\", \"crew\": \"support\"}"));
            if (created.size() >= HttpLoad.IN_FLIGHT) {
                expectCreated(created);
            }
        }
        expectCreated(created);
    }

    private static void expectCreated(List<Future<Integer>> created) {
        for (Future<Integer> f : created) {
            int status = f.await();
            if (status != 201) {
                throw new IllegalStateException("creating the stateful targets' keys: status " + status);
            }
        }
        created.clear();
    }

    private static Future<Integer> post(HttpClientAgent client, int port, String path, String body) {
        return client.request(HttpMethod.POST, port, "127.0.0.1", path).compose(req -> req
                .putHeader("content-type", "application/json").send(body).compose(res -> res.body().map(b -> res.statusCode())));
    }

    static Future<Integer> send(HttpClientAgent client, int port, Target t) {
        return send(client, port, t, () -> { });
    }

    /** {@code onConnection} runs when the client's pool gives the request a connection (its wait on the client side ends). */
    static Future<Integer> send(HttpClientAgent client, int port, Target t, Runnable onConnection) {
        long i = t.seq().getAndIncrement();
        return client.request(t.method(), port, "127.0.0.1", t.path().apply(i)).compose(req -> {
            onConnection.run();
            req.putHeader("content-type", "application/json");
            return (t.method() == HttpMethod.GET ? req.send() : req.send(t.body().apply(i)))
                    .compose(res -> res.body().map(b -> res.statusCode()));
        });
    }
}
