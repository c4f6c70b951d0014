package io.signalman.replay.cluster;

import com.hazelcast.jet.aggregate.AggregateOperation;
import com.hazelcast.jet.aggregate.AggregateOperation1;
import com.hazelcast.jet.pipeline.BatchSource;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.jet.pipeline.SourceBuilder;
import io.signalman.replay.Determinism;
import io.signalman.replay.ReplayTally;
import io.signalman.replay.Selection;
import java.io.Serializable;
import java.util.List;

/**
 * The Jet pipeline of a cluster replay: one {@link ReplayShare} per member, whose partial tallies
 * are merged into one report by a single aggregation. The aggregation emits only when every
 * share is in: if a member leaves, Jet restarts the job on the members left (the shares are
 * recomputed over them) or fails it, and a partial count is never written as the result.
 */
final class ReplayJob {

    /** The ids under which the job carries the rules folders. */
    static final String CANDIDATE = "signalman-candidate-rules";
    static final String BASELINE = "signalman-baseline-rules";

    /**
     * What every member needs besides the shipped rules.
     *
     * @param archive absolute paths of the archive's files and folders, readable by every member
     * @param determinism which records have their determinism checked: the same on every member,
     *                    and, as the sample goes by archive position, the same records as one machine
     */
    record Spec(List<String> archive, Selection selection, boolean baseline, Determinism determinism) implements Serializable {
    }

    private ReplayJob() {
    }

    static Pipeline pipeline(Spec spec, String resultList) {
        BatchSource<ReplayTally> shares = SourceBuilder.batch("signalman-replay-share", ctx -> new ReplayShare(ctx, spec))
                .<ReplayTally>fillBufferFn(ReplayShare::fill)
                .distributed(1)
                .build();
        AggregateOperation1<ReplayTally, ReplayTally, ReplayTally> merged = AggregateOperation
                .withCreate(ReplayTally::new)
                .<ReplayTally>andAccumulate(ReplayTally::merge)
                .andCombine(ReplayTally::merge)
                .andExportFinish(r -> r);
        Pipeline p = Pipeline.create();
        p.readFrom(shares).aggregate(merged).writeTo(Sinks.list(resultList));
        return p;
    }
}
