package io.signalman.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.Packs;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.engine.BundleException;
import io.signalman.engine.CompiledPack;
import io.signalman.engine.Decision;
import io.signalman.engine.DecisionPack;
import io.signalman.engine.Invariant;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Re-decides every record of an archive with candidate rules and compares the outcome with the
 * recorded decision (or with a baseline bundle's decision), checks every invariant of the pack,
 * and notes which rules fired. What is compared is the pack's own fields and the deciding rule;
 * ids, revisions and line numbers are allowed to differ.
 */
public final class Replayer {

    private static final int PROGRESS_EVERY = 10_000;

    private final RuleBundle candidate;
    private final RuleBundle baseline;
    private final PrintStream progress;
    private final Map<ArchiveKey, List<String>> accepted = new LinkedHashMap<>();

    private record ArchiveKey(java.nio.file.Path path) {
    }

    /**
     * @param baseline rules to compare with, or null to compare with the recorded decisions
     * @param progress where to report progress on long archives, or null
     */
    public Replayer(RuleBundle candidate, RuleBundle baseline, PrintStream progress) {
        this.candidate = Objects.requireNonNull(candidate);
        this.baseline = baseline;
        this.progress = progress;
    }

    public ReplayReport replay(Archive archive) {
        ReplayReport report = new ReplayReport();
        report.candidate = candidate.revision();
        report.comparedWith = baseline == null ? "the recorded decisions" : "rules " + baseline.revision();
        Map<String, Set<String>> fired = new HashMap<>();
        int total = archive.records();
        for (Archive.ArchiveFile file : archive.files()) {
            file.problems().forEach(report.problems::add);
            report.fatalProblems += file.problems().size() - (file.tornTail() ? 1 : 0);
            RuleBundle cand;
            RuleBundle base;
            try {
                cand = candidate.withReference(file.reference());
                base = baseline == null ? null : baseline.withReference(file.reference());
            } catch (BundleException e) {
                report.problems.add(file.path() + ": its reference/ data is refused: " + e.errors());
                report.fatalProblems++;
                continue;
            }
            List<String> lines = new ArrayList<>();
            for (Archive.Entry entry : file.entries()) {
                ObjectNode now = replayOne(file, entry, cand, base, report, fired);
                lines.add(Json.write(now == null ? entry.record().toJson() : accept(entry.record(), now, cand)));
                report.records++;
                if (progress != null && total > PROGRESS_EVERY && report.records % PROGRESS_EVERY == 0) {
                    progress.printf("replay: %d / %d records%n", report.records, total);
                }
            }
            accepted.put(new ArchiveKey(file.path()), lines);
        }
        for (CompiledPack pack : candidate.packs().values()) {
            Set<String> seen = fired.getOrDefault(pack.name(), Set.of());
            List<String> never = pack.rules().stream().map(RuleInfo::name).filter(n -> !seen.contains(n)).toList();
            if (!never.isEmpty()) {
                report.neverFired.put(pack.name(), never);
            }
        }
        return report;
    }

    /** The archive's lines with every decision replaced by the candidate's (for {@code --accept}). */
    public Map<java.nio.file.Path, List<String>> acceptedLines() {
        Map<java.nio.file.Path, List<String>> out = new LinkedHashMap<>();
        accepted.forEach((k, v) -> out.put(k.path(), v));
        return out;
    }

    private ObjectNode replayOne(Archive.ArchiveFile file, Archive.Entry entry, RuleBundle cand, RuleBundle base,
                                 ReplayReport report, Map<String, Set<String>> fired) {
        DecisionRecord rec = entry.record();
        DecisionPack<?, ?> pack = Packs.named(rec.pack()).orElse(null);
        if (pack == null || cand.pack(rec.pack()).isEmpty()) {
            report.problems.add(file.path() + ":" + entry.line() + ": no pack \"" + rec.pack() + "\" in the candidate rules");
            report.fatalProblems++;
            return null;
        }
        try {
            return replayTyped(pack, file, entry, cand, base, report, fired);
        } catch (InputException e) {
            report.problems.add(file.path() + ":" + entry.line() + ": recorded input is not valid for " + rec.pack()
                    + (e.field().isEmpty() ? "" : " (" + e.field() + ")") + ": " + e.getMessage());
        } catch (RuntimeException e) {
            report.problems.add(file.path() + ":" + entry.line() + ": the rules failed: " + e);
        }
        report.fatalProblems++;
        return null;
    }

    private <I, D> ObjectNode replayTyped(DecisionPack<I, D> pack, Archive.ArchiveFile file, Archive.Entry entry,
                                          RuleBundle cand, RuleBundle base, ReplayReport report,
                                          Map<String, Set<String>> fired) throws InputException {
        DecisionRecord rec = entry.record();
        I input = pack.parseRecord(rec.input(), rec.stateBefore());
        Decision<D> d = pack.decide(cand, input, false);
        ObjectNode outcome = pack.outcomeJson(d.outcome());
        ObjectNode now = d.recordJson(outcome);
        ObjectNode before = base == null ? rec.decision() : decideRecord(pack, base, input);
        Map<String, JsonNode[]> diff = new LinkedHashMap<>();
        List<String> compared = new ArrayList<>();
        outcome.fieldNames().forEachRemaining(compared::add);
        compared.add("rule");
        for (String field : compared) {
            JsonNode old = before.get(field) == null ? Json.MAPPER.missingNode() : before.get(field);
            if (!Json.same(old, now.get(field))) {
                diff.put(field, new JsonNode[] {old, now.get(field)});
            }
        }
        if (diff.isEmpty()) {
            report.unchanged++;
        } else {
            report.changed(text(before.get("rule")), text(now.get("rule")),
                    new ReplayReport.Change(file.path().toString(), entry.line(), rec.decisionId(), rec.input(), diff));
        }
        for (Invariant<I, D> inv : pack.invariants()) {
            inv.check(input, d, i -> pack.decide(cand, i, false)).ifPresent(msg -> report.violations.add(
                    new ReplayReport.Violation(inv.name(), pack.name(), file.path().toString(), entry.line(),
                            rec.decisionId(), rec.input(), msg,
                            Shrinker.shrink(pack, cand, inv, rec.input(), rec.stateBefore()))));
        }
        Set<String> names = fired.computeIfAbsent(pack.name(), k -> new HashSet<>());
        d.evaluation().fired().forEach(r -> names.add(r.name()));
        return now;
    }

    private static <I, D> ObjectNode decideRecord(DecisionPack<I, D> pack, RuleBundle bundle, I input) {
        Decision<D> d = pack.decide(bundle, input, false);
        return d.recordJson(pack.outcomeJson(d.outcome()));
    }

    private static ObjectNode accept(DecisionRecord rec, ObjectNode now, RuleBundle cand) {
        return new DecisionRecord(rec.decisionId(), rec.at(), rec.pack(), rec.endpoint(), cand.revision(), rec.input(), now,
                rec.stateBefore()).toJson();
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode() ? "(no rule)" : n.asText();
    }
}
