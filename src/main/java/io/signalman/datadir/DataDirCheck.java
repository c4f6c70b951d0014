package io.signalman.datadir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The manifest against the disk, judged the same way for a start ({@link DataDir}, which acts on
 * each finding) and for {@code signalman data verify} ({@link Verify}, which reports it): what is
 * missing, altered or foreign is a problem; what a crash left half done is finished at a start.
 */
final class DataDirCheck {

    enum Kind {
        /** A listed file is gone. */
        MISSING(true),
        /** A complete file's length changed. */
        ALTERED(true),
        /** A file of ours the manifest does not list. */
        FOREIGN(true),
        /** A {@code .tmp} a write left before its rename: deleted. */
        LEFTOVER(false),
        /** A snapshot or journal older than the newest snapshot, whose deletion was cut short: deleted. */
        SUPERSEDED(false),
        /** A compressed copy ready while its original is still listed: it replaces the original. */
        COMPRESSED(false),
        /** A listed snapshot still under its {@code .tmp} name, complete: renamed into place. */
        RENAME(false);

        final boolean problem;

        Kind(boolean problem) {
            this.problem = problem;
        }
    }

    /** One finding: its kind, the file (relative to the data directory), and what it means. */
    record Finding(Kind kind, String rel, String text) {
        boolean problem() {
            return kind.problem;
        }
    }

    private DataDirCheck() {
    }

    /** Whether the newest listed rolled audit file holds exactly {@code rel}'s bytes (its deletion was cut short). */
    private static boolean compressedCopy(Path root, Map<String, Manifest.Entry> listed, String rel) throws IOException {
        String newest = listed.keySet().stream().filter(DataDirFiles::rolledAudit).max(java.util.Comparator
                .comparingLong(r -> listed.get(r).seq())).orElse(null);
        return newest != null && Files.exists(root.resolve(newest)) && DataDirFiles.sameAsCompressed(root.resolve(rel),
                root.resolve(newest));
    }

    static List<Finding> compare(Path root, Map<String, Manifest.Entry> listed) throws IOException {
        List<Finding> out = new ArrayList<>();
        for (var e : listed.entrySet()) {
            String rel = e.getKey();
            Manifest.Entry entry = e.getValue();
            Path p = root.resolve(rel);
            if (Files.exists(p)) {
                if (entry.closed() && Files.size(p) != entry.bytes()) {
                    out.add(new Finding(Kind.ALTERED, rel, rel + " is " + Files.size(p) + " bytes, but it was complete at "
                            + entry.bytes() + " (altered, or another directory's file)"));
                }
                continue;
            }
            Path gz = p.resolveSibling(p.getFileName() + ".gz");
            Path tmp = p.resolveSibling(p.getFileName() + ".tmp");
            if (DataDirFiles.log(rel) && !DataDirFiles.compressed(rel) && Files.exists(gz) && !listed.containsKey(rel + ".gz")) {
                out.add(new Finding(Kind.COMPRESSED, rel + ".gz", rel + ".gz: compressed, not yet listed so"));
            } else if (DataDirFiles.snapshot(rel) && Files.exists(tmp) && entry.closed() && Files.size(tmp) == entry.bytes()) {
                out.add(new Finding(Kind.RENAME, rel, rel + ": its rename was cut short"));
            } else {
                out.add(new Finding(Kind.MISSING, rel, rel + " is missing (file " + entry.seq() + " of this directory"
                        + (entry.closed() ? ", " + entry.bytes() + " bytes" : "") + ")"));
            }
        }
        long generation = listed.keySet().stream().filter(DataDirFiles::snapshot).mapToLong(DataDirFiles::generation).max()
                .orElse(0);
        for (String rel : DataDirFiles.list(root)) {
            if (listed.containsKey(rel)) {
                continue;
            }
            String original = rel.endsWith(".gz") ? DataDirFiles.original(rel) : null;
            if (rel.endsWith(".tmp")) {
                if (!listed.containsKey(rel.substring(0, rel.length() - 4))) {
                    out.add(new Finding(Kind.LEFTOVER, rel, rel + ": a write cut short before its rename"));
                }
            } else if (original != null && listed.containsKey(original)) {
                if (Files.exists(root.resolve(original))) {
                    out.add(new Finding(Kind.COMPRESSED, rel, rel + ": a compression cut short"));
                }
            } else if (Files.size(root.resolve(rel)) == 0 && (rel.equals(DataDirFiles.AUDIT) || rel.equals(DataDirFiles.USERS))) {
                // Made empty just before it was listed (the order that leaves nothing missing): it holds nothing.
                out.add(new Finding(Kind.LEFTOVER, rel, rel + ": an empty file created just before a stop"));
            } else if (rel.equals(DataDirFiles.AUDIT) && compressedCopy(root, listed, rel)) {
                out.add(new Finding(Kind.SUPERSEDED, rel, rel + ": already rolled into its compressed copy"));
            } else if (DataDirFiles.generation(rel) >= 0 && DataDirFiles.generation(rel) < generation) {
                out.add(new Finding(Kind.SUPERSEDED, rel, rel + ": superseded by the newest snapshot"));
            } else {
                out.add(new Finding(Kind.FOREIGN, rel, rel + " is not listed in the manifest (another directory's file, or "
                        + "copied in by hand)"));
            }
        }
        return out;
    }
}
