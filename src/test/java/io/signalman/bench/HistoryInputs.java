package io.signalman.bench;

import io.signalman.packs.Packs;
import io.signalman.TestBundles;
import io.signalman.engine.DecisionPack;
import io.signalman.json.InputException;
import io.signalman.replay.Archive;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Benchmark inputs taken from a pack's golden history: real inputs (with their recorded state),
 * every rule exercised, no hand-picked fast path.
 */
final class HistoryInputs {

    private HistoryInputs() {
    }

    static List<Object> of(String pack) {
        DecisionPack<?, ?> p = Packs.named(pack).orElseThrow();
        try {
            Archive archive = Archive.read(List.of(TestBundles.FIXTURES.resolve(pack)));
            List<Object> out = new ArrayList<>();
            for (Archive.ArchiveFile f : archive.files()) {
                if (!f.reference().isEmpty()) {
                    continue; // recorded under other reference data: not the shipped bundle's inputs
                }
                for (Archive.Entry e : f.entries()) {
                    out.add(p.parseRecord(e.record().input(), e.record().stateBefore()));
                }
            }
            return out;
        } catch (IOException | InputException e) {
            throw new IllegalStateException("cannot read the " + pack + " history for benchmarking", e);
        }
    }

    static Path benchDir() {
        return Path.of("target/bench");
    }
}
