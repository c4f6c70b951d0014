package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayListener;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.ReplayRequest;
import io.signalman.replay.Replayer;
import io.signalman.replay.Selection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * "Impact before activation": a draft replayed against the live rules, over the golden history
 * and over a window of the decision log, with {@link Replayer} (the one replay path of
 * {@code signalman replay --baseline}). An impact runs as a job on one thread of its own, so that
 * a long replay neither blocks the server's workers nor runs twice at once; the page polls its
 * progress.
 */
final class Impact implements AutoCloseable {

    private static final int KEPT = 16;

    /** One impact run; its fields are read by the polling request while the job writes them. */
    static final class Job {
        final String id;
        final AtomicReference<String> phase = new AtomicReference<>("queued");
        final java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong total = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong records = new java.util.concurrent.atomic.AtomicLong();
        final AtomicReference<ObjectNode> result = new AtomicReference<>();
        final AtomicReference<String> error = new AtomicReference<>();

        Job(String id) {
            this.id = id;
        }

        ObjectNode toJson() {
            ObjectNode n = Json.object();
            n.put("id", id);
            n.put("state", error.get() != null ? "failed" : result.get() != null ? "done" : "running");
            n.put("phase", phase.get());
            n.put("done", done.get());
            n.put("total", total.get());
            n.put("records", records.get());
            n.put("error", error.get());
            n.set("report", result.get());
            return n;
        }
    }

    private final Coverage coverage;
    private final Path decisions;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "signalman-workbench-impact");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();
    private final AtomicInteger sequence = new AtomicInteger();
    private volatile ClusterTraffic traffic;

    Impact(Coverage coverage, Path decisions) {
        this.coverage = coverage;
        this.decisions = decisions;
    }

    /** Queues an impact of {@code draft} over the golden history and, when {@code withLog}, the log's selection. */
    Job start(String draftId, RuleBundle live, RuleBundle draft, boolean withLog, Selection window) {
        Job job = new Job(draftId + "-" + sequence.incrementAndGet());
        jobs.put(job.id, job);
        last.put(draftId, new Kept(job.id, draft.revision()));
        if (jobs.size() > KEPT) {
            jobs.keySet().stream().sorted().limit(jobs.size() - KEPT).toList().forEach(jobs::remove);
        }
        runner.execute(() -> {
            try {
                ObjectNode out = Json.object();
                out.put("live_revision", live.revision());
                out.put("draft_revision", draft.revision());
                out.set("golden_history", run(job, "golden history", live, draft, Archive.read(List.of(coverage.fixtures())),
                        Selection.ALL));
                if (withLog) {
                    ClusterTraffic t = traffic;
                    Path fetched = t == null ? null : Files.createTempDirectory("signalman-impact-");
                    ObjectNode l;
                    try {
                        List<Path> paths = new java.util.ArrayList<>();
                        if (Files.isDirectory(decisions)) {
                            paths.add(decisions);
                        }
                        ClusterTraffic.Fetched others = t == null ? null : t.fetch(fetched);
                        if (others != null) {
                            paths.addAll(others.files());
                        }
                        Archive log = paths.isEmpty() ? new Archive(List.of()) : Archive.read(paths);
                        l = run(job, "decision log", live, draft, log, window);
                        if (others != null) {
                            l.set("members", others.members());
                        }
                    } finally {
                        if (fetched != null) {
                            deleteQuietly(fetched);
                        }
                    }
                    l.put("since", window.since() == null ? null : window.since().toString());
                    l.put("until", window.until() == null ? null : window.until().toString());
                    l.put("sample", window.sample());
                    out.set("decision_log", l);
                }
                job.phase.set("done");
                job.result.set(out);
            } catch (IOException | RuntimeException e) {
                job.error.set(e.getMessage() == null ? e.toString() : e.getMessage());
            }
        });
        return job;
    }

    /** In a cluster: the impact replays every member's newest decisions too, and says which members answered. */
    void withTraffic(ClusterTraffic t) {
        this.traffic = t;
    }

    static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is the system's to clean
        }
    }

    /** A draft's last impact run: its job and the content it replayed. */
    private record Kept(String job, String contentHash) {
    }

    private final Map<String, Kept> last = new ConcurrentHashMap<>();

    /**
     * The draft's last impact run (null when none is kept): its job as it stands, and whether it is
     * {@code stale} (the draft's content changed since: {@code contentHash} is the content now).
     */
    ObjectNode last(String draftId, String contentHash) {
        Kept k = last.get(draftId);
        Job j = k == null ? null : jobs.get(k.job());
        if (j == null) {
            return null;
        }
        ObjectNode n = j.toJson();
        n.put("content_hash", k.contentHash()).put("stale", !k.contentHash().equals(contentHash));
        return n;
    }

    /** The job of the draft's last impact run over {@code contentHash}, when it finished; null otherwise. */
    String seen(String draftId, String contentHash) {
        Kept k = last.get(draftId);
        Job j = k == null ? null : jobs.get(k.job());
        return j != null && k.contentHash().equals(contentHash) && j.result.get() != null ? k.job() : null;
    }

    Job job(String id) {
        Job j = jobs.get(id);
        if (j == null) {
            throw new WorkbenchException(404, "unknown_job", "no impact job \"" + (id.length() > 60 ? id.substring(0, 60) : id) + "\"");
        }
        return j;
    }

    /**
     * The draft against the live rules (every changed decision, grouped old rule -> new rule, and
     * in words by the rules whose contribution changed; invariant violations shrunk), then the
     * live rules alone for what they fire, so that the rules the draft would stop firing over the
     * decisions replayed can be named. Progress counts the archive's bytes read, over
     * both passes; the replay streams (memory bounded whatever the log's size) on half the cores,
     * leaving the rest to the server.
     */
    private static ObjectNode run(Job job, String phase, RuleBundle live, RuleBundle draft, Archive archive, Selection selection) {
        job.phase.set(phase);
        job.done.set(0);
        job.total.set(0);
        job.records.set(0);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
        ImpactWords words = new ImpactWords(ChangedRules.of(live, draft));
        // Determinism on a sample (ReplayRequest.of's default): impact previews a draft, it accepts
        // nothing; activating the draft goes through the gate, which checks every record. The
        // live-alone pass is read only for the rules it fires.
        ReplayReport diff = Replayer.run(ReplayRequest.of(draft, archive).withBaseline(live).withSelection(selection)
                .withThreads(threads).withListener(listener(job, 0)).withObserver(words));
        ReplayReport liveAlone = Replayer.run(ReplayRequest.of(live, archive).withSelection(selection).withThreads(threads)
                .withListener(listener(job, 1)));
        ObjectNode out = diff.toJson();
        out.set("in_words", words.toJson());
        ObjectNode stops = out.putObject("stops_firing");
        Coverage.stopsFiring(live, draft, liveAlone, diff).forEach((pack, rules) -> rules.forEach(stops.withArray(pack)::add));
        return out;
    }

    /** Pass {@code pass} of two: its bytes count in the second half of the bar. */
    private static ReplayListener listener(Job job, int pass) {
        return (records, bytesRead, totalBytes) -> {
            job.total.set(2 * totalBytes);
            job.done.set(pass * totalBytes + bytesRead);
            if (pass == 0) {
                job.records.set(records);
            }
        };
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }

    /** The decision log's window and sample, read as {@code replay --since/--until/--sample} reads them. */
    static Selection selection(String since, String until, double sample) {
        try {
            return new Selection(blank(since) ? null : Selection.instant("since", since.strip()),
                    blank(until) ? null : Selection.instant("until", until.strip()), java.util.Set.of(), sample);
        } catch (IllegalArgumentException e) {
            throw new WorkbenchException(400, "invalid_input", e.getMessage());
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
