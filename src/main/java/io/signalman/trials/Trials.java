package io.signalman.trials;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleCompiler;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.engine.Refused;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.Ulid;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live trials: a workbench draft runs as a candidate beside the live rules, in shadow or as a
 * canary ({@link TrialArms} decides), its figures counted ({@link Tally}) and added up over the
 * cluster ({@link Figures}), until it stops by itself ({@link StopLimits}), is promoted through the
 * reload gate ({@link Promoter}) or aborted. A reload or activation of other live rules ends it;
 * a restart resumes it when the live rules are the same, and otherwise ends it, saying why.
 *
 * <p>Every method that changes a trial runs on a worker (it compiles, writes files, asks the
 * cluster) and writes the trial before it answers. A node's own thread ({@code signalman-trials})
 * follows the shared trial (a change made on another node, the candidate to compile here),
 * publishes this node's figures and judges the stop limits on the cluster's, every
 * {@link TrialOptions#tickMillis()} ms.
 *
 * <p>NOTE(size): over the ~200-line guide: a trial's life (start, change, stop, promote, abort,
 * resume) is one state machine over one store, and reads best in one place; deciding
 * ({@link TrialArms}), counting, the log and the store are each their own class.
 */
public final class Trials implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Trials.class);
    private static final long FLUSH_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final Engine engine;
    private final BundleCompiler compiler;
    private final TrialStore store;
    private final DraftSource drafts;
    private final Promoter promoter;
    private final TrialLog log;
    private final TrialArms arms;
    private final String node;
    private final ScheduledExecutorService thread;
    /** Trials this node does not run, and why (other live rules here, a candidate that does not compile here). */
    private final Map<String, String> declined = new ConcurrentHashMap<>();
    /** The figures of trials that ran here and ended, for the node's Prometheus counters. */
    private final Map<String, Long> ended = new ConcurrentHashMap<>();
    private volatile String promoting;
    /** The trial this node runs or last ran (kept after the arms stop, until its last figures are published). */
    private volatile Running here;
    private long lastFlush = System.nanoTime();

    Trials(Engine engine, TrialStore store, DraftSource drafts, Promoter promoter, java.nio.file.Path logDir,
           TrialOptions options, String node) {
        this.engine = engine;
        this.compiler = engine.newCompiler();
        this.store = store;
        this.drafts = drafts;
        this.promoter = promoter;
        this.node = node;
        this.log = new TrialLog(logDir, options.rollBytes(), options.keepFiles(), options.logQueue());
        this.arms = new TrialArms(options, log, this::broke);
        resume();
        engine.onLoad(this::loaded);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "signalman-trials");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::tick, options.tickMillis(), options.tickMillis(), TimeUnit.MILLISECONDS);
    }

    /** Trials of one server, kept under {@code <data>/trials/}. Blocking (reads and may compile a trial to resume). */
    public static Trials local(Engine engine, java.nio.file.Path data, DraftSource drafts, Promoter promoter, TrialOptions options) {
        return new Trials(engine, new FileTrialStore(data.resolve("trials")), drafts, promoter, data.resolve("trials").resolve("log"),
                options, "local-" + Instant.now());
    }

    /** Trials shared by the members of a cluster ({@code io.signalman.cluster.Cluster}); each node's trial log is its own. */
    public static Trials clustered(Engine engine, java.nio.file.Path data, io.signalman.cluster.Cluster cluster, DraftSource drafts,
                                   Promoter promoter, TrialOptions options) {
        FileTrialStore mirror = new FileTrialStore(data.resolve("trials"));
        return new Trials(engine, new SharedTrialStore(cluster.hazelcast(), mirror), drafts, promoter,
                data.resolve("trials").resolve("log"), options, cluster.nodeId());
    }

    /** Told once, by the node that recorded it, when a trial stops by itself (a limit, a reload). */
    private volatile java.util.function.BiConsumer<String, String> stopped = (id, reason) -> { };

    /** {@code listener(trial id, reason)} on each trial that stops by itself: the server audits it (and so tells the webhook). */
    public void onStopped(java.util.function.BiConsumer<String, String> listener) {
        this.stopped = listener;
    }

    /** Told once, by the node that recorded it, when the server changes a trial itself (an approval withdrawn). */
    private volatile java.util.function.BiConsumer<String, String> changedByServer = (id, what) -> { };

    /** {@code listener(trial id, what)} on each change the server makes to a trial itself: the server audits it. */
    public void onChangedByServer(java.util.function.BiConsumer<String, String> listener) {
        this.changedByServer = listener;
    }

    /**
     * Someone rejected exactly the content {@code contentHash} of {@code draft} ({@code why}: who,
     * and their note). A canary answers real requests only with the approvals an activation of its
     * content would need, and a standing rejection voids them: a running canary of that content
     * goes back to shadow at once here (no answer of it goes out after the rejection is recorded),
     * keeping its percent as its sample and its figures, and the change is recorded on the trials'
     * thread and told as the server's. A shadow changes no answer and runs on; so does a canary of
     * other content. Cheap: called as the rejection is appended to the audit log.
     */
    public void approvalWithdrawn(String draft, String contentHash, String why) {
        Running r = arms.running();
        if (r == null || r.trial.mode() != Trial.Mode.CANARY || !r.trial.draft().equals(draft)
                || !r.trial.candidateRevision().equals(contentHash)) {
            return;
        }
        String what = "mode canary -> shadow: the approval of its content was withdrawn (" + why + ")";
        r.trial = r.trial.changed(Trial.Mode.SHADOW, r.trial.percent(), r.trial.stop(), what);
        thread.execute(() -> toShadow(r.id(), what));
    }

    private synchronized void toShadow(String id, String what) {
        boolean[] mine = {false};
        Trial t;
        try {
            t = update(id, before -> {
                mine[0] = before.running() && before.mode() == Trial.Mode.CANARY;
                return mine[0] ? before.changed(Trial.Mode.SHADOW, before.percent(), before.stop(), what) : before;
            });
        } catch (RuntimeException e) {
            LOG.error("trial {} is a shadow here, but could not be recorded as one ({}): {}", id, what, e.toString());
            return;
        }
        Running r = arms.running();
        if (r != null && r.id().equals(id) && t.running()) {
            r.trial = t;
        }
        if (mine[0]) {
            LOG.warn("trial {}: {}", id, what);
            try {
                changedByServer.accept(id, what);
            } catch (RuntimeException e) {
                LOG.error("trial {} changed ({}), but the audit log did not take it: {}", id, what, e.toString());
            }
        }
    }

    /** What the decision service calls for every decision. */
    public Arms arms() {
        return arms;
    }

    /**
     * {@code POST /v1/trials}: the draft's candidate, compiled by the rule checker, starts beside
     * the live rules; as a canary only with the approvals an activation of it would need.
     */
    public synchronized ObjectNode start(JsonNode body) throws InputException {
        TrialRequests.Start s = TrialRequests.start(body);
        store.all().stream().filter(Trial::running).findFirst().ifPresent(t -> {
            throw running(t);
        });
        BundleFiles files = drafts.files(s.draft());
        RuleBundle live = engine.bundle();
        if (files.revision().equals(live.revision())) {
            throw new Refused(Refused.Kind.UNPROCESSABLE, "draft_unchanged", "draft " + s.draft()
                    + " holds exactly the live rules: there is nothing to try");
        }
        if (s.mode() == Trial.Mode.CANARY) {
            drafts.approvedForCanary(s.draft(), files.revision());
        }
        RuleBundle candidate = compile(files, s.draft());
        ArrayNode events = Json.array();
        events.addObject().put("at", Instant.now().toString()).put("event", "started in " + s.mode().wire()
                + " at " + s.percent() + "%");
        Trial t = new Trial(Ulid.next(), s.draft(), s.mode(), s.percent(), s.stop(), Trial.State.RUNNING, null, live.revision(),
                files.revision(), Instant.now().toString(), null, null, 1, events);
        if (!store.start(t, files)) {
            throw running(store.all().stream().filter(Trial::running).findFirst().orElse(t));
        }
        run(new Running(t, candidate, new Tally(), node));
        LOG.info("trial {} started: draft {} ({}) in {} at {}% beside {}", t.id(), t.draft(), t.candidateRevision(),
                t.mode().wire(), t.percent(), t.liveRevision());
        return view(t);
    }

    /** {@code GET /v1/trials/{id}}: the trial with the cluster's figures. */
    public ObjectNode show(String id) {
        return view(find(id));
    }

    /** Every trial kept, newest first, each with its state and headline figures. */
    public ArrayNode list() {
        ArrayNode out = Json.array();
        for (Trial t : store.all()) {
            ObjectNode v = view(t);
            ObjectNode line = t.toJson();
            line.remove("events");
            line.put("comparisons", v.path("comparisons").asLong());
            line.set("agreement_rate", v.get("agreement_rate"));
            out.add(line);
        }
        return out;
    }

    /**
     * {@code PATCH /v1/trials/{id}}: a running trial's percent (a canary's bucket only grows as it
     * rises), stop or mode. Becoming a canary, or a canary's percent rising, needs the approvals
     * of the candidate's content as they stand now; lowering it, or going back to shadow, never does.
     */
    public synchronized ObjectNode change(String id, JsonNode body) throws InputException {
        TrialRequests.Change c = TrialRequests.change(body);
        if (c.state() == Trial.State.STOPPED) {
            return pause(id, c.reason());
        }
        if (c.state() == Trial.State.RUNNING) {
            return resume(id, c.reason());
        }
        Trial t = update(id, before -> {
            if (!before.running()) {
                throw new Refused(Refused.Kind.CONFLICT, "trial_not_running", "trial " + id + " is " + before.state().wire()
                        + "; only a running trial changes");
            }
            Trial.Mode mode = c.mode() == null ? before.mode() : c.mode();
            double percent = c.percent() == null ? before.percent() : c.percent();
            if (mode == Trial.Mode.CANARY && (before.mode() != Trial.Mode.CANARY || percent > before.percent())) {
                // Approvals bound to the candidate as it runs, not to the draft as it is now.
                drafts.approvedForCanary(before.draft(), before.candidateRevision());
            }
            StopLimits stop = c.stopGiven() ? c.stop() : before.stop();
            StringBuilder what = new StringBuilder();
            if (mode != before.mode()) {
                what.append("mode ").append(before.mode().wire()).append(" -> ").append(mode.wire()).append("; ");
            }
            if (percent != before.percent()) {
                what.append("percent ").append(before.percent()).append(" -> ").append(percent).append("; ");
            }
            if (c.stopGiven()) {
                what.append("stop ").append(stop.none() ? "none" : Json.write(stop.toJson())).append("; ");
            }
            return before.changed(mode, percent, stop, what.isEmpty() ? "unchanged" : what.substring(0, what.length() - 2));
        });
        Running r = arms.running();
        if (r != null && r.id().equals(id)) {
            r.trial = t;
        }
        return view(t);
    }

    /**
     * {@code PATCH} {@code {"state": "stopped"}}: a person stops the trial for now; every request is
     * decided by the live rules, the figures so far are kept, and it may be resumed, promoted or aborted.
     */
    private ObjectNode pause(String id, String reason) {
        Trial t = update(id, before -> {
            if (!before.running()) {
                throw new Refused(Refused.Kind.CONFLICT, "trial_not_running", "trial " + id + " is " + before.state().wire()
                        + "; only a running trial stops");
            }
            return before.stopped(STOPPED_BY_PERSON + (reason == null ? "" : ": " + reason));
        });
        Running r = arms.running();
        if (r != null && r.id().equals(id)) {
            arms.stop(r);
        }
        endHere(id);
        LOG.info("trial {} stopped by a person{}", id, reason == null ? "" : ": " + reason);
        return view(t);
    }

    /**
     * {@code PATCH} {@code {"state": "running"}}: a stopped trial runs again beside the same live
     * rules, its candidate compiled again from the files it kept; the figures go on from where
     * they were (this run's are published beside the earlier ones). Refused when the live rules
     * changed since (the comparison would mix two baselines: start a new trial), and a canary needs
     * the approvals it needed to start.
     */
    private ObjectNode resume(String id, String reason) {
        Trial t = find(id);
        if (t.state() != Trial.State.STOPPED) {
            throw new Refused(Refused.Kind.CONFLICT, "trial_not_stopped", "trial " + id + " is " + t.state().wire()
                    + "; only a stopped trial resumes");
        }
        store.all().stream().filter(o -> o.running() && !o.id().equals(id)).findFirst().ifPresent(o -> {
            throw running(o);
        });
        Prepared p = prepare(t, engine.bundle());
        if (p.why() != null) {
            throw new Refused(Refused.Kind.CONFLICT, "trial_cannot_resume", "trial " + id + " cannot resume: " + p.why()
                    + "; start a new trial of the draft instead");
        }
        if (t.mode() == Trial.Mode.CANARY) {
            drafts.approvedForCanary(t.draft(), t.candidateRevision());
        }
        Trial resumed = update(id, before -> {
            if (before.state() != Trial.State.STOPPED) {
                throw new Refused(Refused.Kind.CONFLICT, "trial_not_stopped", "trial " + id + " is " + before.state().wire()
                        + "; only a stopped trial resumes");
            }
            return before.resumed(RESUMED_BY_PERSON + (reason == null ? "" : ": " + reason));
        });
        endHere(id);
        run(new Running(resumed, p.candidate(), new Tally(), figuresKey(node, resumed)));
        LOG.info("trial {} resumed by a person ({} at {}%){}", id, resumed.mode().wire(), resumed.percent(),
                reason == null ? "" : ": " + reason);
        return view(resumed);
    }

    static final String STOPPED_BY_PERSON = "stopped by an operator";
    static final String RESUMED_BY_PERSON = "resumed by an operator";

    /**
     * The key a node publishes a run's figures under: the node's name, and after the k-th resume
     * "node (resumed k)", so that the figures of every run of the trial add up instead of the
     * newest replacing the older.
     */
    static String figuresKey(String node, Trial t) {
        int k = 0;
        for (JsonNode e : t.events()) {
            if (e.path("event").asText().startsWith(RESUMED_BY_PERSON)) {
                k++;
            }
        }
        return k == 0 ? node : node + " (resumed " + k + ")";
    }

    /**
     * {@code POST /v1/trials/{id}/promote}: the candidate, as the trial ran it, goes live through
     * the same gate and activation record as a workbench activation, which names the trial and its
     * figures. A refusal (the gate, golden-history changes not accepted) leaves the trial as it was.
     */
    public synchronized ObjectNode promote(String id, JsonNode body, io.signalman.people.Principal by) throws InputException {
        TrialRequests.Promote p = TrialRequests.promote(body);
        Trial t = find(id);
        if (t.state().over()) {
            throw over(t);
        }
        if (!engine.bundle().revision().equals(t.liveRevision())) {
            throw new Refused(Refused.Kind.CONFLICT, "live_rules_changed", "the live rules are no longer " + t.liveRevision()
                    + ", which the trial ran beside");
        }
        ObjectNode figures = figures(t);
        figures.remove("divergences");
        JsonNode broken = figures.path("invariant_violations");
        if (broken.isArray() && !broken.isEmpty()) {
            // No override: the trial saw the candidate break an invariant on live traffic.
            JsonNode first = broken.get(0);
            ObjectNode d = Json.object().put("invariant", first.path("invariant").asText()).put("pack", first.path("pack").asText())
                    .put("violations", first.path("count").asLong());
            d.set("smallest_input", first.path("example").path("smallest_input").isMissingNode() ? first.path("example").path("input")
                    : first.path("example").path("smallest_input"));
            d.set("invariant_violations", broken.deepCopy());
            throw new Refused(Refused.Kind.CONFLICT, "invariant_violated", "the trial saw the candidate break the invariant \""
                    + first.path("invariant").asText() + "\" of the " + first.path("pack").asText() + " pack "
                    + first.path("count").asLong() + " time(s): it cannot be promoted. Change the rule (a new draft and trial), "
                    + "or the invariant", d);
        }
        promoting = id;
        ObjectNode activation;
        try {
            activation = promoter.promote(new Promoter.Promotion(id, t.draft(), store.candidate(id), p.note(),
                    p.acceptGoldenChanges(), figures, by));
        } finally {
            promoting = null;
        }
        long seq = activation.path("seq").asLong();
        Trial done = update(id, before -> before.promoted(seq));
        endHere(id);
        LOG.info("trial {} promoted as activation #{}", id, seq);
        ObjectNode v = view(done);
        v.set("activation", activation);
        return v;
    }

    /** {@code POST /v1/trials/{id}/abort}: the candidate is removed; every request is decided by the live rules. */
    public synchronized ObjectNode abort(String id, JsonNode body) throws InputException {
        String reason = TrialRequests.abort(body);
        Trial t = update(id, before -> {
            if (before.state().over()) {
                throw over(before);
            }
            return before.aborted(reason);
        });
        endHere(id);
        LOG.info("trial {} aborted{}", id, reason == null ? "" : ": " + reason);
        return view(t);
    }

    /**
     * A trial's candidate, for the workbench's "Try" beside the live rules: the one running here,
     * or compiled again (by the same checker) from the files the trial kept.
     */
    public RuleBundle candidate(String id) {
        Running r = arms.running();
        if (r != null && r.id().equals(id)) {
            return r.candidate;
        }
        Trial t = find(id);
        return compile(store.candidate(t.id()), t.draft());
    }

    /** Whether a trial runs on this node now. */
    public boolean runningHere() {
        return arms.running() != null;
    }

    /**
     * This node's count of {@code what} since it started, every trial that ran here included:
     * {@code live.decisions}, {@code candidate.errors}, {@code comparisons}, {@code diverged},
     * {@code fallbacks}, {@code dropped}, ... (the keys of a {@link Tally#snapshot}, arms dotted).
     */
    public long count(String what) {
        long n = ended.getOrDefault(what, 0L);
        Running r = arms.running();
        return r == null ? n : n + counts(r.tally.snapshot()).getOrDefault(what, 0L);
    }

    /** The running trial's {@code p}-th percentile of an arm's latency on this node, in ms; 0 without one. */
    public double percentileMs(String arm, double p) {
        Running r = arms.running();
        if (r == null) {
            return 0;
        }
        long[] counts = new long[Latency.SIZE];
        Latency.add(counts, r.tally.snapshot().path("arms").path(arm).path("latency_us"));
        return Latency.percentileMs(counts, p);
    }

    /** Off-path work queued for the trial's workers now. */
    public int queued() {
        return arms.queued();
    }

    private static Map<String, Long> counts(ObjectNode snapshot) {
        Map<String, Long> out = new LinkedHashMap<>();
        snapshot.fields().forEachRemaining(e -> {
            if (e.getValue().isNumber()) {
                out.put(e.getKey(), e.getValue().asLong());
            }
        });
        for (String arm : new String[] {"live", "candidate"}) {
            snapshot.path("arms").path(arm).fields().forEachRemaining(e -> {
                if (e.getValue().isNumber()) {
                    out.put(arm + "." + e.getKey(), e.getValue().asLong());
                }
            });
        }
        return out;
    }

    private RuleBundle compile(BundleFiles files, String draft) {
        try {
            return compiler.compile(files);
        } catch (BundleException e) {
            ObjectNode details = Json.object();
            details.set("errors", io.signalman.engine.BundleError.toJson(e.errors()));
            throw new Refused(Refused.Kind.UNPROCESSABLE, "draft_does_not_compile", "draft " + draft + " has " + e.errors().size()
                    + " error(s): it cannot run as a candidate until they are fixed", details);
        }
    }

    private Trial find(String id) {
        return store.get(id).orElseThrow(() -> new Refused(Refused.Kind.NOT_FOUND, "unknown_trial", "no trial \""
                + (id.length() > 40 ? id.substring(0, 40) + "..." : id) + "\""));
    }

    /** Writes the change over the stored trial, again over a newer one if another node changed it meanwhile. */
    private Trial update(String id, UnaryOperator<Trial> change) {
        for (int attempt = 0; attempt < 100; attempt++) {
            Trial before = find(id);
            Trial after = change.apply(before);
            if (store.replace(before, after)) {
                return after;
            }
        }
        throw new IllegalStateException("trial " + id + " kept changing under 100 attempts");
    }

    private static Refused running(Trial t) {
        return new Refused(Refused.Kind.CONFLICT, "trial_running", "trial " + t.id() + " (draft " + t.draft()
                + ") is running: stop, promote or abort it first; one trial runs at a time");
    }

    private static Refused over(Trial t) {
        return new Refused(Refused.Kind.CONFLICT, "trial_over", "trial " + t.id() + " is " + t.state().wire() + " already");
    }

    /** The trial and the cluster's figures, as GET shows them. */
    private ObjectNode view(Trial t) {
        ObjectNode v = t.toJson();
        v.setAll(figures(t));
        return v;
    }

    private ObjectNode figures(Trial t) {
        Map<String, ObjectNode> byNode = store.figures(t.id());
        Running r = arms.running();
        if (r != null && r.id().equals(t.id())) {
            byNode.put(r.node, snapshot(r));
        }
        ObjectNode out = Figures.render(Figures.merge(byNode.values()));
        ArrayNode nodes = out.putArray("nodes");
        byNode.forEach((n, s) -> nodes.addObject().put("node", n).put("running", s.path("running").asBoolean())
                .put("note", s.path("note").asText(null)).put("decisions", s.path("arms").path("live").path("answered").asLong()
                        + s.path("arms").path("candidate").path("answered").asLong()));
        out.put("trial_log", log.directory().toString());
        return out;
    }

    private ObjectNode snapshot(Running r) {
        ObjectNode s = r.tally.snapshot();
        s.put("node", r.node).put("running", arms.running() == r).putNull("note");
        return s;
    }

    /** An invariant broke on the candidate (a trial worker): the trial stops when its limits say so. */
    private void broke(String id, String reason) {
        Running r = arms.running();
        if (r != null && r.id().equals(id) && r.trial.stop().onInvariantViolation()) {
            arms.stop(r);
            thread.execute(() -> stop(r, "an invariant broke on the candidate (" + reason + ")"));
        }
    }

    /** Other live rules serve now (a reload, an activation, a rollback): the trial beside the old ones ends. */
    private void loaded(RuleBundle bundle) {
        Running r = arms.running();
        if (r == null || bundle.revision().equals(r.trial.liveRevision())) {
            return;
        }
        arms.stop(r);
        if (r.id().equals(promoting)) {
            return; // its own promotion: promote() records the end
        }
        String reason = "the live rules changed to " + bundle.revision() + " (a reload or an activation) while the trial ran beside "
                + r.trial.liveRevision();
        thread.execute(() -> stop(r, reason));
    }

    /** Stops a running trial everywhere (the store), and here. */
    private void stop(Running r, String reason) {
        boolean[] mine = {false};
        try {
            update(r.id(), before -> {
                mine[0] = before.running();
                return before.running() ? before.stopped(reason) : before;
            });
            LOG.warn("trial {} stopped: {}", r.id(), reason);
        } catch (RuntimeException e) {
            LOG.error("trial {} could not be recorded as stopped ({}): {}", r.id(), reason, e.toString());
        }
        endHere(r.id());
        if (mine[0]) {
            // Told once its last figures are kept, so that whoever reads them after the stop reads them all.
            try {
                stopped.accept(r.id(), reason);
            } catch (RuntimeException e) {
                LOG.error("trial {} stopped ({}), but the audit log did not take it: {}", r.id(), reason, e.toString());
            }
        }
    }

    /** The trial no longer runs on this node: its last figures are published and kept. */
    private void endHere(String id) {
        declined.remove(id);
        Running r = here;
        if (r == null || !r.id().equals(id)) {
            return;
        }
        arms.stop(r);
        if (!r.ended.compareAndSet(false, true)) {
            return;
        }
        ObjectNode last = snapshot(r);
        store.publish(id, r.node, last);
        counts(last).forEach((k, v) -> ended.merge(k, v, Long::sum));
        if (store instanceof FileTrialStore f) {
            f.flush(id);
        }
    }

    private void run(Running r) {
        here = r;
        arms.run(r);
    }

    /**
     * At start: a trial that was running when this node stopped runs again if the live rules are
     * the ones it ran beside and its candidate still compiles to the same revision; otherwise it
     * ends here and now, saying why. A canary never silently turns into the live rules.
     */
    private void resume() {
        if (store instanceof SharedTrialStore) {
            return; // a member follows the cluster's trial on its tick (adopt)
        }
        RuleBundle live = engine.current().orElse(null);
        for (Trial t : store.all()) {
            if (!t.running()) {
                continue;
            }
            Prepared p = prepare(t, live);
            if (p.why() != null) {
                Trial stopped = t.stopped("the server restarted and " + p.why());
                store.replace(t, stopped);
                LOG.warn("trial {} ended at start: {}", t.id(), stopped.stopReason());
                continue;
            }
            Trial resumed = t.changed(t.mode(), t.percent(), t.stop(), "resumed after a restart of the server");
            store.replace(t, resumed);
            run(new Running(resumed, p.candidate(), new Tally(), figuresKey(node, resumed)));
            LOG.info("trial {} resumed after a restart ({} at {}%)", t.id(), t.mode().wire(), t.percent());
        }
    }

    /** The candidate compiled here, or why this node cannot run the trial ({@code candidate} null then). */
    private record Prepared(RuleBundle candidate, String why) {
    }

    /** Compiles the trial's candidate here, if the live rules are the ones it runs beside and it compiles to its revision. */
    private Prepared prepare(Trial t, RuleBundle live) {
        if (live == null || !live.revision().equals(t.liveRevision())) {
            return new Prepared(null, "its live rules are " + (live == null ? "not loaded" : live.revision()) + ", not "
                    + t.liveRevision() + ", which the trial runs beside");
        }
        try {
            BundleFiles files = store.candidate(t.id());
            if (!files.revision().equals(t.candidateRevision())) {
                return new Prepared(null, "the candidate's files are " + files.revision() + ", not " + t.candidateRevision());
            }
            return new Prepared(compiler.compile(files), null);
        } catch (BundleException e) {
            return new Prepared(null, "the candidate does not compile here: " + e.errors());
        } catch (RuntimeException e) {
            return new Prepared(null, "the candidate cannot be read here: " + e.getMessage());
        }
    }

    /**
     * The node's own thread: follows the shared trial (changed, stopped or started elsewhere),
     * publishes this node's figures, judges the limits on the cluster's, forgets decisions never
     * committed, writes the figures to disk now and then.
     */
    private void tick() {
        try {
            Running r = arms.running();
            if (r != null) {
                Trial stored = store.get(r.id()).orElse(null);
                if (stored == null || !stored.running()) {
                    endHere(r.id());
                    r = null;
                } else if (stored.version() > r.trial.version()) {
                    // Only a newer record: one a step ahead of the store is this node's canary sent back to shadow
                    // at once ({@link #approvalWithdrawn}), its record on the way.
                    r.trial = stored;
                }
            }
            if (r == null) {
                adopt();
                r = arms.running();
            }
            if (r != null) {
                store.publish(r.id(), r.node, snapshot(r));
                String reason = r.trial.stop().tripped(Figures.totals(Figures.merge(store.figures(r.id()).values())));
                if (reason != null) {
                    arms.stop(r);
                    stop(r, reason);
                }
            }
            arms.sweep();
            if (System.nanoTime() - lastFlush > FLUSH_NANOS) {
                lastFlush = System.nanoTime();
                Running h = here;
                if (h != null && store instanceof FileTrialStore f) {
                    f.flush(h.id());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("trials: {}", e.toString());
        }
    }

    /**
     * A trial running in the cluster that this node does not run yet: compiled here and run, or
     * declined with the reason. Under the lock {@link #start} holds: a trial this node is starting
     * is stored before it runs, and adopting it in between would start it again with empty figures.
     */
    private synchronized void adopt() {
        Trial t = store.all().stream().filter(Trial::running).findFirst().orElse(null);
        // A trial that ran here and stopped here is being ended (a reload, a promotion, a limit): not adopted again.
        // A person's resume is a new run: adopted again when this node's last run of it is older than the resume.
        if (t == null || declined.containsKey(t.id()) || (here != null && here.id().equals(t.id())
                && here.node.equals(figuresKey(node, t)))) {
            return;
        }
        RuleBundle live = engine.current().orElse(null);
        Prepared p = prepare(t, live);
        String why = p.why();
        if (why != null) {
            declined.put(t.id(), why);
            ObjectNode s = new Tally().snapshot();
            s.put("node", node).put("running", false).put("note", "this node does not run the trial: " + why);
            store.publish(t.id(), node, s);
            LOG.warn("trial {} is not run on this node: {}", t.id(), why);
            return;
        }
        run(new Running(t, p.candidate(), new Tally(), figuresKey(node, t)));
        LOG.info("trial {} runs on this node too ({} at {}%)", t.id(), t.mode().wire(), t.percent());
    }

    /** Stops the node's thread and the trial's workers; a running trial stays running (it resumes at the next start). */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        arms.close();
        Running r = here;
        if (r != null && !r.ended.get()) {
            store.publish(r.id(), r.node, snapshot(r));
        }
        log.close();
        store.close();
    }
}
