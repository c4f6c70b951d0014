package io.signalman.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.decisionlog.DecisionLog;
import io.signalman.decisionlog.FsyncPolicy;
import io.signalman.decisions.Decisions;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Engine;
import io.signalman.json.Json;
import io.signalman.packs.Packs;
import io.signalman.replay.ReplayGate;
import io.signalman.state.StateStores;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Everything a worker does for one {@code POST /v1/broker/route} between the HTTP stack's body
 * and its response bytes: parse and validate the body, decide, queue the decision log line
 * (written by the log's own thread, which this waits on only when it falls a queue behind),
 * write the response JSON. The worker does not wait for the record: the log's writer hands the
 * answer to the event loop once it is written (and counts the rules fired there). Set against the HTTP figures of
 * {@code make bench}, it says how much of a request's cost is Signalman's and how much the
 * HTTP stack's.
 */
@Measurement(iterations = 4, time = 2)
public class RequestPathBench extends PerCallBench {

    private DecisionLog log;
    private Decisions decisions;
    private DecisionPack<Object, Object> broker;
    private List<byte[]> bodies;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() throws Exception {
        Engine engine = new Engine(TestBundles.RULES, Packs.compiler(), new ReplayGate(TestBundles.FIXTURES));
        engine.load();
        log = new DecisionLog(Files.createTempDirectory("signalman-path-bench"), FsyncPolicy.INTERVAL, 100_000);
        decisions = new Decisions(engine, log, new StateStores());
        broker = (DecisionPack<Object, Object>) Packs.named("broker").orElseThrow();
        bodies = new ArrayList<>();
        for (Object input : HistoryInputs.of("broker")) {
            ObjectNode json = (ObjectNode) broker.inputJson(input);
            json.remove("id");
            bodies.add(Json.bytes(json));
        }
    }

    @TearDown
    public void tearDown() {
        log.close();
    }

    @Benchmark
    public byte[] brokerRouteWorkerPath() throws Exception {
        byte[] body = bodies.get(next);
        next = (next + 1) % bodies.size();
        // What the worker does for the route: its answer leaves later, when the writer says the record is written.
        return decisions.decideQueued(broker, "/v1/broker/route", body, false, null).body();
    }
}
