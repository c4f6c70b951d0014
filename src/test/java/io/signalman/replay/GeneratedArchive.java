package io.signalman.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
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
                for (String line : Files.readAllLines(TestBundles.FIXTURES.resolve(pack).resolve("history.jsonl"), StandardCharsets.UTF_8)) {
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
        write(file, lines, 0, records, Deflater.BEST_SPEED);
    }

    /**
     * A folder of files of at most {@code perFile} records each ({@code decisions-0001.jsonl}, ...,
     * with {@code .gz} when {@code gzip}, compressed as the decision log compresses), as a decision
     * log leaves them; returns the files.
     */
    public static List<Path> writeFolder(Path dir, List<String> lines, long records, long perFile, boolean gzip) {
        List<Path> files = new ArrayList<>();
        for (long first = 0, n = 1; first < records; first += perFile, n++) {
            Path f = dir.resolve(String.format("decisions-%04d.jsonl%s", n, gzip ? ".gz" : ""));
            write(f, lines, first, Math.min(records, first + perFile), Deflater.DEFAULT_COMPRESSION);
            files.add(f);
        }
        return files;
    }

    private static void write(Path file, List<String> lines, long from, long to, int level) {
        try (OutputStream out = open(file, level)) {
            for (long i = from; i < to; i++) {
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

    private static OutputStream open(Path file, int level) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        OutputStream raw = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        if (!file.getFileName().toString().endsWith(".gz")) {
            return raw;
        }
        return new GZIPOutputStream(raw, 1 << 16) {
            {
                def.setLevel(level);
            }
        };
    }
}
