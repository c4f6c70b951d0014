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
 * from the candidate, and every invariant must hold on every record, determinism included (the
 * gate decides which rules serve, so it never samples: see {@link Determinism}). A change the
 * analyst meant is recorded with {@code signalman replay --accept} first; until then the candidate
 * is refused, naming the records it would change. It replays through the same {@link Replayer}
 * as the command line.
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
            report = replay(candidate);
        } catch (IOException e) {
            return List.of(new BundleError(at(fixtures.toString()), 0, 0, "cannot read the golden history: " + e.getMessage()));
        }
        // The real reason leads: a broken invariant is a wrong rule, whatever else changed.
        List<BundleError> errors = new ArrayList<>();
        for (ReplayReport.Violation v : report.violations()) {
            errors.add(new BundleError(at(v.file()), v.line(), 0, "invariant \"" + v.invariant() + "\" breaks: " + v.message()
                    + "; smallest input that breaks it: " + Json.write(v.minimal()) + " (recorded: " + Json.write(v.input()) + ")"));
        }
        // --accept refuses while an invariant breaks, so it is suggested only when it would pass.
        String then = report.violations().isEmpty()
                ? " if it is meant, record it with signalman replay --accept " + shown(fixtures) + " and review the diff"
                : " (signalman replay --accept refuses while an invariant breaks: fix the rule first)";
        List<ReplayReport.Change> first = report.changes();
        for (ReplayReport.Change c : first.subList(0, Math.min(SHOWN, first.size()))) {
            StringBuilder what = new StringBuilder("the recorded decision changes:");
            c.fields().forEach((field, v) -> what.append(' ').append(field).append(' ').append(Json.write(v[0]))
                    .append(" -> ").append(Json.write(v[1])).append(';'));
            errors.add(new BundleError(at(c.file()), c.line(), 0, what + then));
        }
        if (report.counts().changed() > SHOWN) {
            errors.add(new BundleError(at(fixtures.toString()), 0, 0, (report.counts().changed() - SHOWN) + " more recorded decisions change"));
        }
        report.problems().stream().filter(p -> !p.torn())
                .forEach(p -> errors.add(new BundleError(at(fixtures.toString()), 0, 0, p.message())));
        return errors;
    }

    /** The golden history replayed as the gate replays it: every record, every invariant on each. */
    ReplayReport replay(RuleBundle candidate) throws IOException {
        return Replayer.run(ReplayRequest.of(candidate, Archive.read(List.of(fixtures))).withDeterminism(Determinism.ALL));
    }

    /**
     * The golden history is not under {@code rules/}, so its paths are absolute: whoever prints
     * them shows them relative to where the user stands ({@code replay-fixtures/broker/...}), never
     * as if they were rule files ({@code rules/replay-fixtures/...}).
     */
    private static String at(String file) {
        return Path.of(file).toAbsolutePath().normalize().toString();
    }

    /** A path as the user would type it from the current directory. */
    public static String shown(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        Path here = Path.of("").toAbsolutePath();
        return abs.startsWith(here) && !abs.equals(here) ? here.relativize(abs).toString() : abs.toString();
    }
}
