package io.signalman.replay;

import io.signalman.decisionlog.DecisionRecord;
import io.signalman.json.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A replay archive: decision-log files ({@code *.jsonl}, and {@code *.jsonl.gz} as the decision
 * log compresses them when they roll), in argument order and sorted path order within a folder.
 * Listing an archive reads no record: replay streams each file (see {@link LineChunks}). A folder
 * holding a {@code reference/} folder replays its files with that reference data in place of the
 * bundle's (same layout as {@code rules/}, e.g. {@code reference/broker/org-chart.json}): that is
 * how a history recorded under other reference data stays replayable.
 */
public record Archive(List<ArchiveFile> files) {

    /** The file kinds replay reads, as named in errors. */
    public static final String KINDS = "*.jsonl or *.jsonl.gz decision-log files";

    public Archive {
        files = List.copyOf(files);
    }

    /**
     * One file of an archive: its place in the archive (which orders examples deterministically),
     * the argument it was found under, and the reference data it replays with.
     */
    public record ArchiveFile(int index, Path path, String argument, Map<String, byte[]> reference) {

        public boolean compressed() {
            return path.getFileName().toString().endsWith(".gz");
        }

        /** The raw bytes of the file, decompressed when it is a {@code .gz}. */
        public InputStream open() throws IOException {
            return LineChunks.open(this, Files.newInputStream(path));
        }

        /**
         * Every record of the file, read whole. For small files (tests, fixtures, the workbench's
         * examples); replay itself streams and never calls this.
         */
        public List<Entry> entries() {
            return load().entries();
        }

        /** What could not be read in this file (read whole, like {@link #entries()}). */
        public List<String> problems() {
            return load().problems();
        }

        /** Whether the file ends in a torn line, as a process killed mid-write leaves it. */
        public boolean tornTail() {
            return load().tornTail();
        }

        private Loaded load() {
            List<Entry> entries = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            boolean[] torn = {false};
            try (InputStream in = open()) {
                LineChunks.lines(this, in, (line, bytes, off, len, last) -> {
                    try {
                        entries.add(new Entry(line, RecordParser.parse(bytes, off, len)));
                    } catch (InputException e) {
                        if (last) {
                            torn[0] = true;
                            problems.add(RecordParser.torn(this, line, len));
                        } else {
                            problems.add(RecordParser.unreadable(this, line, e));
                        }
                    }
                }, problems::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + path, e);
            }
            return new Loaded(entries, problems, torn[0]);
        }
    }

    private record Loaded(List<Entry> entries, List<String> problems, boolean tornTail) {
    }

    /** One record with its line number. */
    public record Entry(int line, DecisionRecord record) {
    }

    /** Lists the files under each argument (a file, or a folder searched recursively). */
    public static Archive read(List<Path> paths) throws IOException {
        List<ArchiveFile> files = new ArrayList<>();
        Map<Path, Map<String, byte[]>> references = new TreeMap<>();
        for (Path p : paths) {
            List<Path> found = new ArrayList<>();
            if (Files.isDirectory(p)) {
                // A server's data directory: its decision log is the archive, not its state files.
                Path walked = dataDirectory(p) ? p.resolve("decisions") : p;
                try (Stream<Path> walk = Files.walk(walked)) {
                    walk.filter(f -> readable(f) && Files.isRegularFile(f)).sorted(io.signalman.decisionlog.LogFiles.ORDER)
                            .forEach(found::add);
                }
            } else if (Files.isRegularFile(p)) {
                found.add(p);
            } else {
                throw new IOException("no such archive file or folder: " + p);
            }
            // A log file whose compression finished but was not yet deleted is read once, from its .gz.
            found.removeIf(f -> f.getFileName().toString().endsWith(".jsonl")
                    && found.contains(f.resolveSibling(f.getFileName() + ".gz")));
            for (Path f : found) {
                Path dir = f.toAbsolutePath().getParent();
                Map<String, byte[]> ref = references.get(dir);
                if (ref == null) {
                    ref = reference(dir);
                    references.put(dir, ref);
                }
                files.add(new ArchiveFile(files.size(), f, p.toString(), ref));
            }
        }
        return new Archive(files);
    }

    /**
     * Whether {@code dir} is a server's data directory ({@code --data}): a {@code decisions/}
     * folder beside its manifest, lock or {@code state/}. Replaying it replays its decision log.
     */
    public static boolean dataDirectory(Path dir) {
        return Files.isDirectory(dir.resolve("decisions")) && (Files.exists(dir.resolve("manifest.json"))
                || Files.exists(dir.resolve("lock")) || Files.isDirectory(dir.resolve("state")));
    }

    /** Whether replay reads a file of this name when it searches a folder. */
    public static boolean readable(Path f) {
        String name = f.getFileName().toString();
        return name.endsWith(".jsonl") || name.endsWith(".jsonl.gz");
    }

    /** Records in every file, read whole: for small archives only (see {@link ArchiveFile#entries()}). */
    public int records() {
        return files.stream().mapToInt(f -> f.entries().size()).sum();
    }

    /** Bytes on disk of every file (compressed bytes for {@code .gz}): what progress is counted in. */
    public long bytes() {
        long total = 0;
        for (ArchiveFile f : files) {
            try {
                total += Files.size(f.path());
            } catch (IOException e) {
                // A file that vanished is reported when it is read; progress just counts less.
            }
        }
        return total;
    }

    /** The archive's arguments, in the order given (each names itself in errors). */
    public List<String> arguments() {
        return files.stream().map(ArchiveFile::argument).distinct().toList();
    }

    /** The same archive restricted to some of its files (a cluster member's share); indexes are kept. */
    public Archive only(List<Integer> indexes) {
        return new Archive(indexes.stream().map(files::get).toList());
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
