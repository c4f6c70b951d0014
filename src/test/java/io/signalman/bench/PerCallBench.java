package io.signalman.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings the per-call benchmarks share, so that their numbers stay comparable in one
 * table: the average time of one call in nanoseconds, one forked JVM, three warm-up rounds of 2 s,
 * a state per thread. JMH's annotations are inherited; each benchmark states its own
 * {@code @Measurement}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Fork(1)
public abstract class PerCallBench {
}
