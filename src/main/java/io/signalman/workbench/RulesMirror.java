package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.control.AtomicFiles;
import io.signalman.control.ControlStore;
import io.signalman.control.Journal;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In a cluster, a node's rules folder mirrors the cluster's live revision; it is not the truth.
 * The truth is the newest entry of the control plane's activations journal. At start, before the
 * node serves, {@link #sync} writes that revision into the folder whatever it held (the first
 * member of a new cluster seeds the journal from its own folder instead). Then {@link #follow}
 * loads every revision any member activates, rollbacks and reverts included, as soon as its entry
 * is appended. A member that cannot build a revision says so ({@link #unavailable}): it is named
 * on {@code GET /v1/cluster} and in activation answers, and answers 503 {@code revision_unavailable}
 * rather than serve the old rules silently. A hand edit of the folder is refused ({@link #handEdit}):
 * logged with how rules change in a cluster, and the folder is put back.
 */
public final class RulesMirror {

    private static final Logger LOG = LoggerFactory.getLogger(RulesMirror.class);

    private final ControlStore control;
    private final Path rules;
    private final ActivationLog log;
    private final Revisions revisions;
    private final ScheduledExecutorService applying = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "signalman-rules-mirror");
        t.setDaemon(true);
        return t;
    });
    private volatile Engine engine;
    /** The revision this member could not build, and why; null when it serves the cluster's. */
    private volatile String unavailable;
    private volatile boolean writing;
    private volatile boolean waitingForQuorum;

    public RulesMirror(ControlStore control, Path rules) {
        this.control = control;
        this.rules = rules;
        this.revisions = new Revisions(control.revisions());
        this.log = new ActivationLog(control.journal(ControlStore.ACTIVATIONS), revisions);
    }

    /**
     * Before the first load: the cluster's live revision is written into the folder; with none
     * yet, this member is the cluster's first and its folder seeds it (an activation of kind
     * {@code seed}). Blocking.
     */
    public void sync() {
        String live = log.live();
        if (live == null) {
            if (!seed()) {
                return;
            }
            live = log.live();
        }
        write(live);
    }

    /**
     * Seeds the cluster's rules from this member's folder, when no member did yet. True when
     * another member seeded first (the caller then writes that revision into the folder); false
     * when this member seeded, or cannot now (no quorum, {@code --cluster-quorum}: the folder then
     * serves as it is, and the seed is tried again every few seconds).
     */
    private boolean seed() {
        BundleFiles here = folder();
        try {
            revisions.keep(here);
            ObjectNode seed = Json.object().put("seq", 1).put("kind", "seed").put("source", "the rules folder of " + control.node())
                    .put("who", "signalman").put("who_via", "start").put("at", Instant.now().toString())
                    .put("note", "the cluster's first member seeded its rules from its own folder").putNull("old_revision")
                    .put("new_revision", here.revision()).put("content_hash", here.revision()).put("node", control.node());
            if (log.journal().append(1, Json.write(seed))) {
                LOG.info("rules: this is the cluster's first member; its folder {} seeds the cluster's rules, {}", rules,
                        here.revision());
                return false;
            }
            return true;
        } catch (io.signalman.control.QuorumLost e) {
            if (!waitingForQuorum) {
                waitingForQuorum = true;
                LOG.warn("rules: the cluster has no rules yet and fewer members than --cluster-quorum: serving this folder's {} "
                        + "until the quorum is there to seed the cluster's", here.revision());
            }
            return false;
        }
    }

    /** From now on, every revision the cluster makes live is loaded here (and once now, for one made live meanwhile). */
    public void follow(Engine engine) {
        this.engine = engine;
        log.journal().onAppend(() -> applying.execute(this::apply));
        // Also every few seconds: a seed that waited for the quorum, an entry whose event was lost while members moved.
        applying.scheduleWithFixedDelay(this::apply, 0, 3, TimeUnit.SECONDS);
    }

    /** The revision this member could not build and why, or null when it serves the cluster's revision. */
    public String unavailable() {
        return unavailable;
    }

    /** The cluster's live revision (the newest activation's), or null before the first member seeded it. */
    public String live() {
        return log.live();
    }

    /** The activations journal this mirror follows (the workbench appends to the same one). */
    Journal journal() {
        return log.journal();
    }

    /**
     * The folder watcher saw a change: in a cluster the folder is not where rules change. Unless it
     * is this mirror's own write, the edit is refused with a log line saying how rules change, and
     * the folder is put back to the cluster's revision.
     */
    public void handEdit() {
        applying.execute(() -> {
            if (writing) {
                return;
            }
            String live = log.live();
            BundleFiles now;
            try {
                now = BundleFiles.read(rules);
            } catch (BundleException e) {
                now = null;
            }
            if (live == null || now != null && now.revision().equals(live)) {
                return;
            }
            LOG.warn("rules folder {} was changed by hand ({}): refused. In a cluster the folder mirrors the cluster's revision "
                    + "{}; rules change through the workbench (a draft, approved, then activated on any node), which every "
                    + "member loads. The folder is put back.", rules, now == null ? "unreadable" : now.revision(), live);
            write(live);
        });
    }

    private void apply() {
        try {
            applyNow();
        } catch (RuntimeException x) {
            LOG.warn("rules: cannot follow the cluster's revision now: {}", x.toString());
        }
    }

    private void applyNow() {
        Engine e = engine;
        String live = log.live();
        if (live == null && e != null && seed()) {
            live = log.live();
        }
        if (e == null || live == null) {
            return;
        }
        // Under the engine's own lock: an activation on this node holds it until its revision serves.
        String serving;
        synchronized (e) {
            serving = e.current().map(RuleBundle::revision).orElse(null);
            if (live.equals(serving)) {
                unavailable = null;
                return;
            }
        }
        try {
            synchronized (e) {
                write(live);
                RuleBundle b = e.load();
                unavailable = null;
                LOG.info("rules: now serving the cluster's revision {}", b.revision());
            }
        } catch (BundleException | RuntimeException x) {
            String why = x instanceof BundleException be ? be.errors().size() + " error(s), first: " + be.errors().get(0)
                    : x.toString();
            unavailable = live + ": " + why;
            LOG.error("rules: this member cannot build the cluster's revision {} ({}); it answers 503 revision_unavailable "
                    + "instead of serving {} silently", live, why, serving);
        }
    }

    /** Writes {@code revision} into the folder: changed files atomically, files it does not hold removed. */
    private synchronized void write(String revision) {
        BundleFiles want = revisions.read(revision);
        BundleFiles now;
        try {
            now = BundleFiles.read(rules);
        } catch (BundleException e) {
            now = null;
        }
        if (now != null && now.revision().equals(revision)) {
            return;
        }
        writing = true;
        try {
            Files.createDirectories(rules);
            for (String p : want.paths()) {
                byte[] old = now == null || !now.paths().contains(p) ? null : now.bytes(p);
                if (!Arrays.equals(old, want.bytes(p))) {
                    Path target = DraftPaths.resolve(rules, p);
                    Files.createDirectories(target.getParent());
                    AtomicFiles.write(target, want.bytes(p));
                }
            }
            if (now != null) {
                for (String p : now.paths()) {
                    if (!want.paths().contains(p)) {
                        Files.deleteIfExists(rules.resolve(p));
                    }
                }
            }
            LOG.info("rules: wrote the cluster's revision {} into {} (it held {})", revision, rules,
                    now == null ? "no readable bundle" : now.revision());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cluster's revision into " + rules, e);
        } finally {
            writing = false;
        }
    }

    private BundleFiles folder() {
        try {
            return BundleFiles.read(rules);
        } catch (BundleException e) {
            throw new IllegalStateException("the cluster has no rules yet, and this first member's folder " + rules
                    + " cannot be read to seed them: " + e.errors().get(0), e);
        }
    }

    public void close() {
        applying.shutdownNow();
    }
}
