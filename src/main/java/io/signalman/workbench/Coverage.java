package io.signalman.workbench;

import io.signalman.engine.CompiledPack;
import io.signalman.engine.RuleBundle;
import io.signalman.engine.RuleInfo;
import io.signalman.replay.Archive;
import io.signalman.replay.ReplayReport;
import io.signalman.replay.Replayer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which rules an archive fires, by replaying it (the same {@link Replayer} as
 * {@code signalman replay}); the golden history's answer is kept per bundle revision.
 */
final class Coverage {

    private final Path fixtures;
    private final Map<String, Map<String, List<String>>> goldenNever = new ConcurrentHashMap<>();

    Coverage(Path fixtures) {
        this.fixtures = fixtures;
    }

    Path fixtures() {
        return fixtures;
    }

    /** Rules of each pack the golden history never fires under {@code b}. Blocking. */
    Map<String, List<String>> goldenNeverFired(RuleBundle b) {
        return goldenNever.computeIfAbsent(b.revision(), r -> {
            if (!Files.isDirectory(fixtures)) {
                return Map.of();
            }
            try {
                // Only the rules it fires are read: determinism on the default sample costs least.
                return new Replayer(b, null, null).replay(Archive.read(List.of(fixtures))).neverFired();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Rules {@code live} fires over an archive and {@code draft} does not (a rule the draft
     * removes included), per pack: what would stop firing.
     */
    static Map<String, List<String>> stopsFiring(RuleBundle live, RuleBundle draft, ReplayReport liveReport,
                                                 ReplayReport draftReport) {
        Map<String, List<String>> out = new TreeMap<>();
        for (CompiledPack p : live.packs().values()) {
            java.util.Set<String> liveFired = fired(p, liveReport);
            java.util.Set<String> draftFired = draft.pack(p.name()).map(d -> fired(d, draftReport)).orElse(java.util.Set.of());
            List<String> stops = liveFired.stream().filter(n -> !draftFired.contains(n)).sorted().toList();
            if (!stops.isEmpty()) {
                out.put(p.name(), stops);
            }
        }
        return out;
    }

    private static java.util.Set<String> fired(CompiledPack p, ReplayReport report) {
        List<String> never = report.neverFired().getOrDefault(p.name(), List.of());
        java.util.Set<String> out = new java.util.HashSet<>();
        p.rules().stream().map(RuleInfo::name).filter(n -> !never.contains(n)).forEach(out::add);
        return out;
    }
}
