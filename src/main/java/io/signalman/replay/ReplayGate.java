package io.signalman.replay;

import io.signalman.engine.BundleError;
import io.signalman.engine.Gate;
import io.signalman.engine.RuleBundle;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The reload gate's history check: every record under the fixtures folder must come out again
 * from the candidate, and every invariant must hold. A change the analyst meant is recorded with
 * {@code signalman replay --accept} first; until then the candidate is refused, naming the
 * records it would change. It replays through the same {@link Replayer} as the command line.
 */
public final class ReplayGate implements Gate {

    /** How many changed records a refusal names before it summarises. */
    static final int SHOWN = 20;

    private final Path fixtures;

    public ReplayGate(Path fixtures) {
        this.fixtures = fixtures;
    }

    @Override
    public List<BundleError> check(RuleBundle candidate) {
        if (!Files.isDirectory(fixtures)) {
            return List.of();
        }
        ReplayReport report;
        try {
            report = Replayer.run(ReplayRequest.of(candidate, Archive.read(List.of(fixtures))));
        } catch (IOException e) {
            return List.of(new BundleError(fixtures.toString(), 0, 0, "cannot read the golden history: " + e.getMessage()));
        }
        List<BundleError> errors = new ArrayList<>();
        List<ReplayReport.Change> first = report.changes();
        for (ReplayReport.Change c : first.subList(0, Math.min(SHOWN, first.size()))) {
            StringBuilder what = new StringBuilder("the recorded decision changes:");
            c.fields().forEach((field, v) -> what.append(' ').append(field).append(' ').append(Json.write(v[0]))
                    .append(" -> ").append(Json.write(v[1])).append(';'));
            errors.add(new BundleError(c.file(), c.line(), 0, what + " accept it with signalman replay --accept if it is meant"));
        }
        if (report.changed() > SHOWN) {
            errors.add(new BundleError(fixtures.toString(), 0, 0, (report.changed() - SHOWN) + " more recorded decisions change"));
        }
        for (ReplayReport.Violation v : report.violations()) {
            errors.add(new BundleError(v.file(), v.line(), 0, "invariant \"" + v.invariant() + "\" breaks: " + v.message()
                    + "; smallest input that breaks it: " + Json.write(v.minimal()) + " (recorded: " + Json.write(v.input()) + ")"));
        }
        report.problems().stream().filter(p -> !p.contains("torn last line"))
                .forEach(p -> errors.add(new BundleError(fixtures.toString(), 0, 0, p)));
        return errors;
    }
}
