package io.signalman.workbench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.Json;
import io.signalman.replay.Archive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The "Try a message" form's examples: from the golden history, one recorded input for each rule
 * that decided one, labelled with that rule, with the state a stateful pack decided it from.
 */
final class Examples {

    static final int MAX = 60;

    private Examples() {
    }

    static ArrayNode of(Path fixtures, String pack) {
        ArrayNode out = Json.array();
        Path dir = fixtures.resolve(pack).normalize();
        if (!dir.startsWith(fixtures.normalize()) || !Files.isDirectory(dir)) {
            return out;
        }
        Set<String> seen = new HashSet<>();
        try {
            for (Archive.ArchiveFile f : Archive.read(List.of(dir)).files()) {
                if (!f.reference().isEmpty()) {
                    continue; // recorded under other reference data: the live rules would not decide it the same
                }
                for (Archive.Entry e : f.entries()) {
                    DecisionRecord r = e.record();
                    String rule = r.rule() == null ? "(no rule)" : r.rule();
                    if (pack.equals(r.pack()) && seen.add(rule) && out.size() < MAX) {
                        ObjectNode n = out.addObject();
                        n.put("label", rule);
                        n.put("record", fixtures.relativize(f.path()) + ":" + e.line());
                        n.set("input", r.input());
                        n.set("state_before", r.stateBefore());
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out;
    }
}
