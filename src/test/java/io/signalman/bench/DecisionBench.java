package io.signalman.bench;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.RuleBundle;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Every pack's one typed {@code decide}, explain off and on, over the inputs of its golden history
 * in turn (rules_fired is always collected). Run with {@code make bench}; BrokerBench's
 * hand-written if-chain in the same run is the floor.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(1)
public class DecisionBench {

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
