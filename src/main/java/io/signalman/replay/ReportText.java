package io.signalman.replay;

import io.signalman.json.Json;
import java.util.List;
import java.util.Locale;

/** A {@link ReplayReport} as an analyst reads it in a terminal. */
final class ReportText {

    private ReportText() {
    }

    static String of(ReplayReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("replayed ").append(r.counts().records()).append(" records against rules ").append(r.candidate())
                .append(", compared with ").append(r.comparedWith()).append('\n');
        if (r.counts().records() != r.counts().read()) {
            sb.append("  selected:  ").append(r.counts().records()).append(" of ").append(r.counts().read()).append(" records read (")
                    .append(r.selection()).append("); skipped ").append(r.skippedTime()).append(" by time, ")
                    .append(r.skippedPack()).append(" by pack, ").append(r.skippedSample()).append(" by sample")
                    .append(r.skippedArm() == 0 ? "" : ", " + r.skippedArm() + " by arm").append('\n');
        }
        sb.append("  unchanged: ").append(r.counts().unchanged()).append('\n');
        sb.append("  changed:   ").append(r.counts().changed()).append('\n');
        for (ReplayReport.Group g : r.groups()) {
            sb.append("    \"").append(g.from()).append("\" -> \"").append(g.to()).append("\": ").append(g.count()).append('\n');
            for (ReplayReport.Change c : g.examples()) {
                sb.append("      ").append(c.file()).append(':').append(c.line()).append(' ').append(Json.write(c.input())).append('\n');
                c.fields().forEach((field, v) -> sb.append("        ").append(field).append(": ")
                        .append(Json.write(v[0])).append(" -> ").append(Json.write(v[1])).append('\n'));
            }
        }
        sb.append("  invariant violations: ").append(r.counts().violationCount()).append('\n');
        List<ReplayReport.Violation> shown = r.violations();
        for (ReplayReport.Violation v : shown) {
            sb.append("    ").append(v.invariant()).append(" (").append(v.pack()).append(") at ").append(v.file()).append(':')
                    .append(v.line()).append(": ").append(v.message()).append("\n      input: ").append(Json.write(v.input()))
                    .append("\n      smallest input that still breaks it: ").append(Json.write(v.minimal())).append('\n');
        }
        if (r.counts().violationCount() > shown.size()) {
            sb.append("    (the first ").append(ReplayReport.VIOLATIONS).append(" of each invariant are shown)\n");
        }
        sb.append("  determinism checked on ").append(r.counts().determinismChecked()).append(" of ").append(r.decided())
                .append(" records").append(r.determinism() == Determinism.ALL ? " (every record)"
                        : " (1 in " + Determinism.SAMPLE_ONE_IN + ", by archive position; --determinism all checks every one)")
                .append('\n');
        long never = r.neverFired().values().stream().mapToLong(List::size).sum();
        sb.append("  rules never fired: ").append(never == 0 ? "none" : String.valueOf(never)).append('\n');
        r.neverFired().forEach((pack, rules) -> rules.forEach(x -> sb.append("    ").append(pack).append(": \"").append(x)
                .append("\"\n")));
        for (ReplayReport.Problem p : r.problems()) {
            sb.append("  ").append(p.message()).append('\n');
        }
        if (r.counts().problemCount() > r.problems().size()) {
            sb.append("  ... and ").append(r.counts().problemCount() - r.problems().size()).append(" more problems\n");
        }
        for (ReplayReport.Member m : r.members()) {
            sb.append("  member ").append(m.member()).append(": ").append(m.records()).append(" records in ")
                    .append(String.format(Locale.ROOT, "%.2f", m.elapsedSeconds())).append(" s\n");
        }
        if (r.counts().records() == 0) {
            sb.append("  no record was replayed: a replay that read nothing never passes\n");
        }
        sb.append(r.passed() ? "PASS" : "FAIL").append(": ").append(r.counts().changed()).append(" changed, ")
                .append(r.counts().violationCount()).append(" invariant violations, ").append(r.fatalProblems())
                .append(" unreadable records; ").append(r.counts().records()).append(" records in ")
                .append(String.format(Locale.ROOT, "%.2f", r.elapsedSeconds())).append(" s (")
                .append(String.format(Locale.ROOT, "%,.0f", r.recordsPerSecond())).append(" records/s)\n");
        return sb.toString();
    }
}
