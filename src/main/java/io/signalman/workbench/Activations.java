package io.signalman.workbench;

import io.signalman.control.AtomicFiles;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import io.signalman.engine.Engine;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import io.signalman.people.People;
import io.signalman.people.Principal;
import io.signalman.replay.Accept;
import io.signalman.replay.Archive;
import io.signalman.replay.Determinism;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.ReplayRequest;
import io.signalman.replay.Replayer;
import io.signalman.replay.Selection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Activation: a draft (or an earlier activated revision, for a rollback) becomes the live rules
 * through the same gate as {@code POST /v1/rules/reload}. The golden history is replayed first;
 * decisions it would change are accepted only when asked explicitly, with a note, exactly as
 * {@code signalman replay --accept} rewrites them. The files are then written into the rules
 * folder (each atomically) and {@link Engine#load()} compiles and gates them; on refusal every
 * file is put back and the previous rules keep serving. Each activation is appended to
 * {@code <data>/activations.jsonl} ({@link ActivationLog}). One activation at a time.
 */
final class Activations {

    private final Engine engine;
    private final Path rules;
    private final Path fixtures;
    private final Checks checks;
    private final ActivationLog log;
    private final People people;
    /** Whether the activations are the cluster's: an activation is then a compare-and-set on the live revision. */
    private final boolean shared;
    private final String node;

    Activations(Engine engine, Path fixtures, Checks checks, ActivationLog log, People people, boolean shared, String node) {
        this.engine = engine;
        this.rules = engine.rulesDir();
        this.fixtures = fixtures;
        this.checks = checks;
        this.log = log;
        this.people = people;
        this.shared = shared;
        this.node = node;
    }

    ActivationLog log() {
        return log;
    }

    /**
     * Blocking (compile, replay, gate): a worker thread. {@code who} is recorded as the one who
     * activated; {@code people} (authors, approvals, the draft, an emergency mark) go into the
     * activation record and, with the content hashes and the note, into the audit log as
     * {@code audit} (activated, rolled_back).
     */
    synchronized ObjectNode activate(BundleFiles candidate, String kind, String source, Principal who, String note,
                                     boolean acceptGolden, ObjectNode about, String audit) {
        if (note == null || note.isBlank()) {
            throw new WorkbenchException(400, "note_required", "an activation needs a note saying what changes and why");
        }
        Checks.Outcome check = checks.check(candidate);
        if (!check.ok()) {
            throw WorkbenchException.located(422, "bundle_refused", check.errors().size()
                    + " error(s): the draft does not compile, nothing was activated", check.errors());
        }
        BundleFiles before = read(rules);
        String oldRevision = shared && log.live() != null ? log.live()
                : engine.current().map(RuleBundle::revision).orElse(before.revision());
        ReplayReport golden = replayGolden(check.bundle());
        if (golden.counts().changed() > 0 && !acceptGolden) {
            ObjectNode d = Json.object();
            d.set("golden_history", golden.toJson());
            throw new WorkbenchException(409, "golden_history_changes", golden.counts().changed() + " recorded decision(s) of the "
                    + "golden history would change; accept them explicitly (with your note) if they are intended", d);
        }
        if (recent != null && ("activate".equals(kind) || "trial".equals(kind))) {
            invariantsHold(recent.replay(check.bundle()));
        }
        log.revisions().keep(before);
        Map<Path, byte[]> undo = new LinkedHashMap<>();
        ArrayNode diff = Json.array();
        ObjectNode[] appended = new ObjectNode[1];
        RuleBundle loaded;
        try {
            if (golden.counts().changed() > 0) {
                writeAccepted(check.bundle(), undo);
            }
            writeRules(before, candidate, undo, diff);
            loaded = engine.load(bundle -> {
                // Kept before it is named live: a member that reads the new entry finds the files.
                log.revisions().keep(bundle.files());
                ObjectNode rec = Json.object();
                rec.put("kind", kind);
                rec.put("source", source);
                rec.put("who", who.name());
                rec.put("who_via", who.how());
                rec.put("at", Instant.now().toString());
                rec.put("note", note.strip());
                rec.put("old_revision", oldRevision);
                rec.put("new_revision", bundle.revision());
                rec.put("content_hash", candidate.revision());
                if (shared) {
                    rec.put("node", node);
                }
                if (about != null) {
                    rec.setAll(about);
                }
                rec.set("diff", diff);
                rec.set("impact", summary(golden));
                // In a cluster, the compare-and-set that makes the revision the cluster's: it lands only on oldRevision.
                appended[0] = log.append(rec, !shared ? null : about != null && about.hasNonNull("base_revision")
                        ? about.get("base_revision").asText() : oldRevision);
            });
        } catch (BundleException e) {
            // A refused load never replaced the active bundle: putting the files back is all there is to undo.
            restore(undo);
            throw WorkbenchException.located(422, "bundle_refused", e.errors().size()
                    + " reason(s) from the reload gate; the previous rules keep serving", e.errors());
        } catch (IOException e) {
            restore(undo);
            throw new UncheckedIOException("cannot write the rules folder", e);
        } catch (RuntimeException e) {
            // Another activation made another revision live first (409), or the quorum is lost: nothing changed here.
            restore(undo);
            throw e;
        }
        ObjectNode written = appended[0];
        ObjectNode entry = Json.object().put("activation", written.path("seq").asInt()).put("kind", kind).put("source", source)
                .put("old_revision", oldRevision).put("new_revision", loaded.revision()).put("content_hash", candidate.revision());
        if (about != null) {
            entry.setAll(about);
        }
        entry.put("note", note.strip());
        com.fasterxml.jackson.databind.JsonNode recorded = people.record(who, audit, entry);
        RulesHistory git = history;
        if (git != null) {
            // After the journal and the audit log: the commit names the audit entry, and a failed one changes nothing here.
            written.set("git", git.commit(written, candidate, who, recorded));
        }
        return written;
    }

    /** {@code --rules-git}: each activation made here committed into the rules folder's work tree; null: none. */
    private volatile RulesHistory history;

    void history(RulesHistory h) {
        this.history = h;
    }

    /**
     * Nothing goes live past a broken invariant: the packs' invariants over the recent traffic (the
     * newest day of the decision log, every member's in a cluster) as the candidate decides it.
     * There is no override: the rule or the invariant must change.
     */
    private static void invariantsHold(ReplayReport traffic) {
        if (traffic.violations().isEmpty()) {
            return;
        }
        ReplayReport.Violation first = traffic.violations().get(0);
        ObjectNode d = Json.object();
        d.put("invariant", first.invariant()).put("pack", first.pack()).put("violations", traffic.counts().violationCount())
                .put("records", traffic.counts().records());
        d.set("smallest_input", first.minimal() != null ? first.minimal() : first.input());
        d.set("recent_traffic", traffic.toJson());
        throw new WorkbenchException(409, "invariant_violated", "the change breaks the invariant \"" + first.invariant() + "\" of the "
                + first.pack() + " pack on " + traffic.counts().violationCount() + " of the " + traffic.counts().records()
                + " recent decisions replayed (" + first.message() + "); the smallest input that breaks it is in details. "
                + "Nothing was activated: change the rule, or the invariant", d);
    }

    /** The recent traffic an activation replays for invariants; null: none (tests of the gate alone). */
    private volatile RecentTraffic recent;

    void recentTraffic(RecentTraffic r) {
        this.recent = r;
    }

    /**
     * Every record checked for determinism: what this replay finds changed is written into the
     * golden history as the truth, which a rule that decides one record two ways must never be.
     */
    private ReplayReport replayGolden(RuleBundle candidate) {
        try {
            return Replayer.run(ReplayRequest.of(candidate, Archive.read(List.of(fixtures))).withDeterminism(Determinism.ALL));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the golden history", e);
        }
    }

    /**
     * The golden history with the candidate's decisions, rewritten by {@link Accept} exactly as
     * {@code signalman replay --accept} does; every fixture file is kept first, to be put back if
     * the gate then refuses.
     */
    private void writeAccepted(RuleBundle candidate, Map<Path, byte[]> undo) throws IOException {
        Archive archive = Archive.read(List.of(fixtures));
        for (Archive.ArchiveFile f : archive.files()) {
            undo.putIfAbsent(f.path(), Files.readAllBytes(f.path()));
        }
        Accept.rewrite(candidate, archive, Selection.ALL);
    }

    private void writeRules(BundleFiles before, BundleFiles after, Map<Path, byte[]> undo, ArrayNode diff) throws IOException {
        for (String p : after.paths()) {
            byte[] old = before.paths().contains(p) ? before.bytes(p) : null;
            byte[] now = after.bytes(p);
            if (old != null && java.util.Arrays.equals(old, now)) {
                continue;
            }
            Path target = DraftPaths.resolve(rules, p);
            undo.put(target, old);
            Files.createDirectories(target.getParent());
            AtomicFiles.write(target, now);
            diff.addObject().put("file", p).put("status", old == null ? "added" : "changed")
                    .put("diff", FileDiff.unified(p, old == null ? "" : text(old), text(now)));
        }
        for (String p : before.paths()) {
            if (!after.paths().contains(p)) {
                Path target = DraftPaths.resolve(rules, p);
                undo.put(target, before.bytes(p));
                Files.delete(target);
                diff.addObject().put("file", p).put("status", "removed").put("diff", FileDiff.unified(p, text(before.bytes(p)), ""));
            }
        }
    }

    private static void restore(Map<Path, byte[]> undo) {
        undo.forEach((p, old) -> {
            try {
                if (old == null) {
                    Files.deleteIfExists(p);
                } else {
                    AtomicFiles.write(p, old);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot put " + p + " back after a refused activation", e);
            }
        });
    }

    private static ObjectNode summary(ReplayReport golden) {
        ObjectNode n = Json.object();
        n.put("golden_records", golden.counts().records());
        n.put("golden_unchanged", golden.counts().unchanged());
        n.put("golden_changes_accepted", golden.counts().changed());
        ArrayNode groups = n.putArray("changes");
        golden.groups().forEach(g -> groups.addObject().put("from_rule", g.from()).put("to_rule", g.to()).put("count", g.count()));
        n.put("invariant_violations", golden.counts().violationCount());
        return n;
    }

    private static BundleFiles read(Path dir) {
        try {
            return BundleFiles.read(dir);
        } catch (BundleException e) {
            throw WorkbenchException.located(500, "rules_unreadable", "the rules folder cannot be read", e.errors());
        }
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
