package io.signalman.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Large archives for tests and benchmarks: the golden history repeated, each copy's records with
 * fresh decision ids, so that a candidate that changes k records of one copy changes k x copies.
 */
public final class GeneratedArchive {

    /** The packs whose histories need no reference/ folder of their own. */
    public static final List<String> PACKS = List.of("broker", "signals", "fsm", "dispatch", "handoff");

    private static final String ID_PREFIX = "{\"decision_id\":\"";

    private GeneratedArchive() {
    }

    /** The top-level history lines of the given packs, in order. */
    public static List<String> lines(List<String> packs, boolean compact) {
        List<String> out = new ArrayList<>();
        try {
            for (String pack : packs) {
                for (String line : Files.readAllLines(Path.of("replay-fixtures", pack, "history.jsonl"), StandardCharsets.UTF_8)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    out.add(compact ? compact(line) : line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The record without the decision's rules_fired and reason (which replay does not read): smaller files. */
    private static String compact(String line) {
        try {
            ObjectNode n = (ObjectNode) Json.parse(line);
            ((ObjectNode) n.get("decision")).remove(List.of("rules_fired", "reason"));
            return Json.write(n);
        } catch (io.signalman.json.InputException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes {@code records} records cycling through {@code lines} (gzip-compressed, fast, when the
     * name ends in {@code .gz}); record i gets the decision id {@code G} + i, padded to 26 characters.
     */
    public static void write(Path file, List<String> lines, long records) {
        try (OutputStream out = open(file)) {
            for (long i = 0; i < records; i++) {
                String line = lines.get((int) (i % lines.size()));
                if (!line.startsWith(ID_PREFIX)) {
                    throw new IllegalStateException("a history line that does not start with its decision_id: " + line);
                }
                int idEnd = line.indexOf('"', ID_PREFIX.length());
                out.write(ID_PREFIX.getBytes(StandardCharsets.UTF_8));
                out.write(String.format("G%025d", i).getBytes(StandardCharsets.UTF_8));
                out.write(line.substring(idEnd).getBytes(StandardCharsets.UTF_8));
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static OutputStream open(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        if (!file.getFileName().toString().endsWith(".gz")) {
            return raw;
        }
        return new GZIPOutputStream(raw, 1 << 16) {
            {
                def.setLevel(Deflater.BEST_SPEED);
            }
        };
    }
}
