package io.signalman.replay.cluster;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.collection.IList;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import io.signalman.cluster.Cluster;
import io.signalman.replay.Determinism;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.ReplayTally;
import io.signalman.replay.Selection;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * {@code signalman replay --members host:port,...}: connects to the Signalman cluster at those
 * members (as a Hazelcast client: it owns no data and is no member of the cluster), submits a
 * Jet job that carries the candidate (and baseline) rules folders, waits for it and returns the
 * merged report, which is the report one machine would have made, plus each member's share.
 * The archive's paths must name the same files on every member (a shared folder).
 */
public final class ClusterReplay {

    private ClusterReplay() {
    }

    /**
     * @param baseline the baseline rules folder, or null to compare with the recorded decisions
     * @param determinism which records every member checks determinism on (it travels in the job's spec)
     * @throws IllegalStateException when the job failed or its result does not cover every file
     */
    public static ReplayReport run(List<String> members, Path rules, Path baseline, List<Path> archive, Selection selection,
                                   Determinism determinism) {
        long start = System.nanoTime();
        HazelcastInstance client = HazelcastClient.newHazelcastClient(clientConfig(members));
        try {
            String result = "signalman.replay." + UUID.randomUUID();
            JobConfig config = new JobConfig().setName("signalman replay " + result)
                    .attachDirectory(rules.toAbsolutePath().toFile(), ReplayJob.CANDIDATE);
            if (baseline != null) {
                config.attachDirectory(baseline.toAbsolutePath().toFile(), ReplayJob.BASELINE);
            }
            ReplayJob.Spec spec = new ReplayJob.Spec(archive.stream().map(p -> p.toAbsolutePath().normalize().toString()).toList(),
                    selection, baseline != null, determinism);
            Job job = client.getJet().newJob(ReplayJob.pipeline(spec, result), config);
            job.join();
            IList<ReplayTally> out = client.getList(result);
            try {
                if (out.size() != 1) {
                    throw new IllegalStateException("the replay job ended with " + out.size() + " reports instead of one");
                }
                ReplayTally report = out.get(0);
                if (!report.complete()) {
                    throw new IllegalStateException("the members' shares do not cover every file of the archive");
                }
                report.elapsedSeconds((System.nanoTime() - start) / 1e9);
                return report.report();
            } finally {
                out.destroy();
            }
        } finally {
            client.shutdown();
        }
    }

    private static ClientConfig clientConfig(List<String> members) {
        ClientConfig c = new ClientConfig();
        c.setClusterName(Cluster.NAME);
        c.setProperty("hazelcast.logging.type", "slf4j");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.getNetworkConfig().setAddresses(members).setSmartRouting(true);
        c.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(30_000);
        return c;
    }
}
