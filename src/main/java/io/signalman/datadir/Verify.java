package io.signalman.datadir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * {@code signalman data verify}: everything a start checks, and more, without changing anything:
 * the manifest against the disk (missing, foreign, altered files), each complete
 * file's length and CRC32C, and every record of every file against its own checksum. What a start
 * would quietly finish (a torn tail, a rename or compression cut short, leftovers) is a note; what
 * it would refuse is a problem.
 */
public final class Verify {

    /** What the check found: problems (a start would refuse, or data is damaged) and notes. */
    public record Report(List<String> problems, List<String> notes, int files, long records) {
        public boolean ok() {
            return problems.isEmpty();
        }
    }

    private final Path root;
    private final List<String> problems = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int files;
    private long records;

    private Verify(Path root) {
        this.root = root;
    }

    /** Checks {@code root}, reading every file whole. Changes nothing; safe beside a running server. */
    public static Report check(Path root) throws IOException {
        Verify v = new Verify(root);
        v.run();
        return new Report(List.copyOf(v.problems), List.copyOf(v.notes), v.files, v.records);
    }

    private void run() throws IOException {
        if (!Files.isDirectory(root)) {
            problems.add(root + " is not a directory");
            return;
        }
        if (DataDirLock.held(root)) {
            notes.add("in use by pid " + DataDirLock.holder(root) + ": the files being written may end in a write in progress");
        }
        List<String> present = DataDirFiles.list(root);
        Manifest m;
        if (!Files.exists(root.resolve(Manifest.NAME))) {
            if (present.isEmpty()) {
                notes.add("no data yet: a start creates the directory's files");
                return;
            }
            boolean sealed = false;
            for (String rel : present) {
                sealed |= !rel.endsWith(".tmp") && DataDirFiles.sealed(root.resolve(rel));
            }
            if (sealed) {
                problems.add(Manifest.NAME + " is missing, but files carry checksums: it was deleted or lost (restore it, or "
                        + "start with --accept-data-loss to list the files present as they are)");
            } else {
                notes.add("format 1 (written by the previous version, no manifest, no checksums): serve upgrades it in place "
                        + "at its next start");
            }
            for (String rel : present) {
                records(rel, !sealed, false);
            }
            return;
        }
        try {
            m = Manifest.read(root);
        } catch (DataDirRefused e) {
            problems.add(e.getMessage());
            return;
        }
        Map<String, Manifest.Entry> listed = m.files();
        for (DataDirCheck.Finding f : DataDirCheck.compare(root, listed)) {
            if (f.problem()) {
                problems.add(f.text());
            } else {
                notes.add(f.text() + (f.kind() == DataDirCheck.Kind.LEFTOVER || f.kind() == DataDirCheck.Kind.SUPERSEDED
                        ? "; removed at the next start" : "; finished at the next start"));
            }
        }
        for (var e : listed.entrySet()) {
            Path p = root.resolve(e.getKey());
            if (Files.exists(p) && (!e.getValue().closed() || Files.size(p) == e.getValue().bytes())) {
                listedFile(e.getKey(), e.getValue());
            }
        }
    }

    /** A listed file that is there: its checksum when complete, then its records. */
    private void listedFile(String rel, Manifest.Entry e) throws IOException {
        if (e.closed()) {
            int crc = DataDirFiles.crc(root.resolve(rel));
            if (crc != e.crc()) {
                problems.add(rel + ": its CRC32C is " + String.format("%08x", crc) + ", but it was " + String.format("%08x", e.crc())
                        + " when complete (damaged or replaced)");
                return;
            }
        }
        records(rel, e.legacy(), e.closed() || DataDirFiles.snapshot(rel));
    }

    /** Every record of one file against its checksum; {@code complete}: a torn tail is damage, not a crash's. */
    private void records(String rel, boolean legacy, boolean complete) throws IOException {
        if (rel.endsWith(".tmp")) {
            return;
        }
        Path p = root.resolve(rel);
        files++;
        RecordScan.Result scan;
        try (InputStream raw = Files.newInputStream(p);
             InputStream in = rel.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
            scan = RecordScan.scan(p, in, legacy);
        } catch (java.io.EOFException e) {
            problems.add(rel + ": the compressed file ends early (cut short)");
            return;
        }
        records += scan.records();
        if (scan.corrupt() != null) {
            problems.add(rel + ": the record at byte " + scan.corrupt().offset() + (rel.endsWith(".gz") ? " (decompressed)" : "")
                    + ", line " + scan.corrupt().line() + ", is corrupt (" + scan.corrupt().why() + "), and whole records "
                    + "follow it");
        } else if (scan.tornBytes() > 0) {
            String what = rel + ": ends in " + scan.tornBytes() + " bytes that are not a whole record (after byte "
                    + scan.wholeBytes() + ")";
            if (complete || rel.endsWith(".gz")) {
                problems.add(what + ", though the file is complete");
            } else {
                notes.add(what + ": a write cut short by a crash, cut back at the next start");
            }
        }
    }
}
