package io.signalman.bench;

import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import io.signalman.packs.Packs;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Every pack's one typed {@code decide}, explain off and on, over the inputs of its golden history
 * in turn (rules_fired is always collected). Run with {@code make bench}; BrokerBench's
 * hand-written if-chain in the same run is the floor.
 */
@Measurement(iterations = 4, time = 2)
public class DecisionBench extends PerCallBench {

    @Param({"broker", "signals", "fsm", "dispatch", "handoff"})
    public String pack;

    @Param({"false", "true"})
    public boolean explain;

    private RuleBundle bundle;
    private DecisionPack<Object, Object> decider;
    private List<Object> inputs;
    private int next;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        bundle = TestBundles.shipped();
        decider = (DecisionPack<Object, Object>) Packs.named(pack).orElseThrow();
        inputs = HistoryInputs.of(pack);
    }

    @Benchmark
    public Decision<Object> decide() {
        Object input = inputs.get(next);
        next = (next + 1) % inputs.size();
        return decider.decide(bundle, input, explain);
    }
}
