package io.signalman.bench;

import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.broker.OrgChart;
import io.signalman.broker.ReferenceRouter;
import io.signalman.broker.RouteDecision;
import io.signalman.engine.Decision;
import io.signalman.engine.RuleBundle;
import io.signalman.packs.Packs;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Setup;

/**
 * The broker's decision path in process, with rules_fired collected (as every decision is), next
 * to the seed's hand-written if-chain over the same messages: the floor to compare with.
 */
@Measurement(iterations = 5, time = 2)
public class BrokerBench extends PerCallBench {

    private RuleBundle bundle;
    private ReferenceRouter ifChain;
    private List<BrokerMessage> messages;
    private int next;

    @Setup
    public void setUp() {
        bundle = TestBundles.shipped();
        ifChain = new ReferenceRouter(bundle.requirePack("broker").reference().as(OrgChart.class));
        messages = MESSAGES;
    }

    /** The messages every broker benchmark decides: one for each of the broker's rules. */
    static final List<BrokerMessage> MESSAGES = List.of(
            msg("foresight", "critical", "event", "trade.executed"), msg("tool-smith", "normal", "event", "trade.executed"),
            msg("foresight", "normal", "escalation", "trade.halted"), msg("foresight", "normal", "event", "trade.executed"),
            msg("indecision-engine", "normal", "event", "signal.published"), msg("sentinel", "normal", "event", "service.offline"),
            msg("nats-bridge", "normal", "event", "service.online"), msg("content-writer", "normal", "event", "content.published"),
            msg("memory-service", "normal", "event", "memory.committed"), msg("foresight", "normal", "event", "pnl.report"),
            msg("tool-smith", "normal", "event", "tool.installed"), msg("stranger", "low", "event", "misc.hello"));

    private static BrokerMessage msg(String from, String priority, String type, String subtype) {
        return new BrokerMessage(null, new BrokerMessage.Envelope(from, priority), type, subtype, null);
    }

    private BrokerMessage nextMessage() {
        BrokerMessage m = messages.get(next);
        next = (next + 1) % messages.size();
        return m;
    }

    @Benchmark
    public Decision<RouteDecision> drlDecision() {
        return Packs.BROKER.decide(bundle, nextMessage(), false);
    }

    @Benchmark
    public RouteDecision handWrittenIfChain() {
        return ifChain.route(nextMessage());
    }
}
