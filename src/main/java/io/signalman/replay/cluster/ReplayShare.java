package io.signalman.replay.cluster;

import com.hazelcast.cluster.Address;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.pipeline.SourceBuilder;
import io.signalman.packs.Packs;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.RuleBundle;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayListener;
import io.signalman.replay.ReplayTally;
import io.signalman.replay.ReplayRequest;
import io.signalman.replay.Replayer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One cluster member's part of a replay job, run by Jet on that member (on a thread of its own:
 * the source is not cooperative). It compiles the rules shipped with the job, lists the archive
 * from the shared folder (every member lists the same files in the same order), takes every
 * n-th file, and replays them with the same {@link Replayer} as a single machine, on every core.
 */
final class ReplayShare {

    private final Processor.Context context;
    private final ReplayJob.Spec spec;
    private boolean done;

    ReplayShare(Processor.Context context, ReplayJob.Spec spec) {
        this.context = context;
        this.spec = spec;
    }

    void fill(SourceBuilder.SourceBuffer<ReplayTally> buffer) throws Exception {
        if (done) {
            buffer.close();
            return;
        }
        done = true;
        RuleBundle candidate = compile(ReplayJob.CANDIDATE);
        RuleBundle baseline = spec.baseline() ? compile(ReplayJob.BASELINE) : null;
        Archive all = Archive.read(spec.archive().stream().map(Path::of).toList());
        List<Integer> mine = new ArrayList<>();
        for (int i = context.globalProcessorIndex(); i < all.files().size(); i += context.totalParallelism()) {
            mine.add(i);
        }
        ReplayTally report = Replayer.tally(new ReplayRequest(candidate, baseline, all.only(mine), spec.selection(),
                Runtime.getRuntime().availableProcessors(), ReplayListener.NONE, spec.determinism()));
        report.shareOf(all.files().size());
        Address me = context.hazelcastInstance().getCluster().getLocalMember().getAddress();
        report.sharedBy(me.getHost() + ":" + me.getPort());
        buffer.add(report);
    }

    private RuleBundle compile(String attached) throws Exception {
        return Packs.compiler().compile(BundleFiles.read(context.attachedDirectory(attached).toPath()));
    }
}
