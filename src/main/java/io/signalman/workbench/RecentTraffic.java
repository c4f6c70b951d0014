package io.signalman.workbench;

import io.signalman.engine.RuleBundle;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.ReplayRequest;
import io.signalman.replay.Replayer;
import io.signalman.replay.Selection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent traffic an activation replays before it goes live: the newest {@link #WINDOW} of the
 * decision log, this node's and, in a cluster, the newest records of every member's
 * ({@link ClusterTraffic}), decided by the candidate. What the impact shows, the activation
 * enforces: a broken invariant on it refuses the activation.
 */
final class RecentTraffic {

    static final Duration WINDOW = Duration.ofHours(24);

    private final Path decisions;
    private volatile ClusterTraffic traffic;

    RecentTraffic(Path decisions) {
        this.decisions = decisions;
    }

    void cluster(ClusterTraffic t) {
        this.traffic = t;
    }

    /** The candidate over the recent traffic. Blocking (a replay): a worker. */
    ReplayReport replay(RuleBundle candidate) {
        Path fetched = null;
        try {
            List<Path> paths = new ArrayList<>();
            if (Files.isDirectory(decisions)) {
                paths.add(decisions);
            }
            ClusterTraffic t = traffic;
            if (t != null) {
                fetched = Files.createTempDirectory("signalman-activation-");
                paths.addAll(t.fetch(fetched).files());
            }
            Archive archive = paths.isEmpty() ? new Archive(List.of()) : Archive.read(paths);
            Selection window = new Selection(Instant.now().minus(WINDOW), null, java.util.Set.of(), 1.0);
            return Replayer.run(ReplayRequest.of(candidate, archive).withSelection(window)
                    .withThreads(Math.max(1, Runtime.getRuntime().availableProcessors() / 2)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the recent traffic", e);
        } finally {
            if (fetched != null) {
                Impact.deleteQuietly(fetched);
            }
        }
    }
}
