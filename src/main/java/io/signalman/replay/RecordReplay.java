package io.signalman.replay;

import io.signalman.packs.Packs;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.InputException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Replays records into one partial report: parse, select, decide, compare, check the invariants
 * (every one, but the determinism check on the records {@link Determinism} picks), note what
 * fired, drop. One per replaying thread (it is not thread-safe, and needs no lock);
 * whatever thread or cluster member replays a record, this is the code that does it.
 */
final class RecordReplay {

    private final ReplayBundles bundles;
    private final Selection selection;
    private final ChangeObserver observer;
    private final Determinism determinism;
    private final ReplayTally report = new ReplayTally();
    private final Map<String, Set<String>> fired = new HashMap<>();
    private final Map<String, DecisionPack<?, ?>> packs = new HashMap<>();

    RecordReplay(ReplayBundles bundles, Selection selection, ChangeObserver observer, Determinism determinism) {
        this.bundles = bundles;
        this.selection = selection;
        this.observer = observer;
        this.determinism = determinism;
        report.determinism(determinism);
    }

    ReplayTally tally() {
        return report;
    }

    void chunk(LineChunks.Chunk c) {
        ReplayBundles.ForFile rules = bundles.forFile(c.file());
        long read = 0;
        for (int i = 0; i < c.count(); i++) {
            if (line(c.file(), rules, c.lines()[i], c.bytes(), c.offsets()[i], c.lengths()[i], c.unterminated(i))) {
                read++;
            }
        }
        report.read(c.file().argument(), read);
    }

    /** Replays one line; false when it could not be read as a record. */
    private boolean line(Archive.ArchiveFile file, ReplayBundles.ForFile rules, int line, byte[] bytes, int off, int len,
                         boolean unterminated) {
        long position = Firsts.position(file.index(), line);
        DecisionRecord rec;
        try {
            rec = RecordParser.parseForReplay(bytes, off, len);
        } catch (InputException e) {
            if (unterminated) {
                // A process killed mid-write leaves a partial last line: skip it, say so, go on.
                report.problem(position, new ReplayReport.Problem(RecordParser.torn(file, line, len), false, true));
            } else {
                report.problem(position, new ReplayReport.Problem(RecordParser.unreadable(file, line, e), true, false));
            }
            return false;
        }
        Selection.Skip skip = selection.test(rec.pack(), rec.at(), rec.decisionId(), rec.arm());
        report.selected(skip);
        if (skip == Selection.Skip.NONE) {
            replay(file, line, position, rec, rules);
        }
        return true;
    }

    private void replay(Archive.ArchiveFile file, int line, long position, DecisionRecord rec, ReplayBundles.ForFile rules) {
        DecisionPack<?, ?> pack = packs.computeIfAbsent(rec.pack(), n -> Packs.named(n).orElse(null));
        if (pack == null || rules.candidate().pack(rec.pack()).isEmpty()) {
            report.problem(position, new ReplayReport.Problem(file.path() + ":" + line + ": no pack \"" + rec.pack() + "\" in the candidate rules", true, false));
            return;
        }
        try {
            replayTyped(pack, file, line, position, rec, rules);
        } catch (InputException e) {
            report.problem(position, new ReplayReport.Problem(file.path() + ":" + line + ": recorded input is not valid for " + rec.pack()
                    + (e.field().isEmpty() ? "" : " (" + e.field() + ")") + ": " + e.getMessage(), true, false));
        } catch (RuntimeException e) {
            report.problem(position, new ReplayReport.Problem(file.path() + ":" + line + ": the rules failed: " + e, true, false));
        }
    }

    private <I, D> void replayTyped(DecisionPack<I, D> pack, Archive.ArchiveFile file, int line, long position,
                                    DecisionRecord rec, ReplayBundles.ForFile rules) throws InputException {
        RuleBundle cand = rules.candidate();
        Redecision<I, D> r = Redecision.of(pack, rec, cand, rules.baseline());
        String path = file.path().toString();
        if (r.changed()) {
            report.changed(position, r.oldRule(), r.newRule(),
                    new ReplayReport.Change(path, line, rec.decisionId(), rec.input(), r.diff()));
            if (observer != ChangeObserver.NONE) {
                observer.changed(new ChangeObserver.Change(position, path + ":" + line, rec, r.diff(), r.firedBefore(rec),
                        r.decision().evaluation().fired().stream().map(RuleInfo::name).toList()));
            }
        } else {
            report.unchanged();
        }
        Function<I, Decision<D>> again = i -> pack.decide(cand, i, false);
        boolean checksAgain = determinism.checks(position);
        boolean decidedAgain = false;
        for (Invariant<I, D> inv : pack.invariants()) {
            if (inv.decidesAgain()) {
                if (!checksAgain) {
                    continue;
                }
                decidedAgain = true;
            }
            Optional<String> broken = inv.check(r.input(), r.decision(), again);
            if (broken.isPresent()) {
                // Shrinking costs up to Shrinker.MAX_TRIES decisions: only for violations the report keeps.
                var minimal = report.wantsViolation(pack.name(), inv.name(), position)
                        ? Shrinker.shrink(pack, cand, inv, rec.input(), rec.stateBefore()) : null;
                report.violation(position, new ReplayReport.Violation(inv.name(), pack.name(), path, line,
                        rec.decisionId(), rec.input(), broken.get(), minimal));
            }
        }
        if (decidedAgain) {
            report.determinismChecked();
        }
        Set<String> names = fired.get(pack.name());
        if (names == null) {
            names = report.fired(pack.name());
            fired.put(pack.name(), names);
        }
        for (RuleInfo fired : r.decision().evaluation().fired()) {
            names.add(fired.name());
        }
    }
}
