package io.signalman.replay;

import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.InputException;
import io.signalman.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A replay archive: decision-log files read in sorted path order. An argument may be a file or a
 * folder (searched recursively for {@code *.jsonl}). A folder holding a {@code reference/} folder
 * replays its files with that reference data in place of the bundle's (same layout as
 * {@code rules/}, e.g. {@code reference/broker/org-chart.json}): that is how a history recorded
 * under other reference data, such as a registry without trading agents, stays replayable.
 */
public record Archive(List<ArchiveFile> files) {

    /** One file of an archive. */
    public record ArchiveFile(Path path, List<Entry> entries, List<String> problems, Map<String, byte[]> reference,
                              boolean tornTail) {
    }

    /** One record with its line number. */
    public record Entry(int line, DecisionRecord record) {
    }

    public static Archive read(List<Path> paths) throws IOException {
        List<Path> jsonl = new ArrayList<>();
        for (Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.filter(f -> f.toString().endsWith(".jsonl") && Files.isRegularFile(f))
                            .sorted(io.signalman.decisionlog.LogFiles.ORDER).forEach(jsonl::add);
                }
            } else if (Files.isRegularFile(p)) {
                jsonl.add(p);
            } else {
                throw new IOException("no such archive file or folder: " + p);
            }
        }
        List<ArchiveFile> files = new ArrayList<>();
        for (Path f : jsonl) {
            files.add(readFile(f));
        }
        return new Archive(files);
    }

    public int records() {
        return files.stream().mapToInt(f -> f.entries().size()).sum();
    }

    static ArchiveFile readFile(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        boolean endsClean = text.isEmpty() || text.endsWith("\n");
        String[] lines = text.split("\n", -1);
        int last = endsClean ? lines.length - 1 : lines.length;
        List<Entry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        boolean torn = false;
        for (int i = 0; i < last; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            try {
                entries.add(new Entry(i + 1, DecisionRecord.fromJson(Json.parse(line))));
            } catch (InputException e) {
                if (i == last - 1 && !endsClean) {
                    // A process killed mid-write leaves a partial last line: skip it, say so, go on.
                    torn = true;
                    problems.add(file + ":" + (i + 1) + ": torn last line skipped (" + line.length() + " bytes)");
                } else {
                    problems.add(file + ":" + (i + 1) + ": unreadable record"
                            + (e.field().isEmpty() ? "" : " (" + e.field() + ")") + ": " + e.getMessage());
                }
            }
        }
        return new ArchiveFile(file, entries, problems, reference(file.getParent()), torn);
    }

    private static Map<String, byte[]> reference(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        Path ref = dir == null ? null : dir.resolve("reference");
        if (ref == null || !Files.isDirectory(ref)) {
            return out;
        }
        try (Stream<Path> walk = Files.walk(ref)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(p)) {
                    out.put(ref.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
                }
            }
        }
        return out;
    }
}
