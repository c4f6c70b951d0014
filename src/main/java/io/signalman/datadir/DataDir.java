package io.signalman.datadir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data directory opened by its one owner (a server, or an import into a stopped node): locked
 * ({@link DataDirLock}), its {@link Manifest} compared with the disk, and every file left open by
 * the last run judged, before anything reads or writes it.
 *
 * <ul>
 *   <li>A file the manifest lists that is gone (a deleted log file, snapshot or journal), a
 *       complete file whose length changed, or a file of ours the manifest does not list (from
 *       another directory) is refused, all of them named at once, unless the operator accepts the
 *       loss ({@code --accept-data-loss}): then what is missing is unlisted and what is foreign is
 *       set aside under {@code set-aside/<time>/}, each logged.</li>
 *   <li>What a crash leaves is finished quietly: a snapshot renamed after the manifest listed
 *       it, a compression whose original was not yet deleted, superseded snapshots and journals,
 *       temporary files.</li>
 *   <li>A file the last run left open has its torn tail cut back; corruption in its middle is
 *       refused (or, accepting the loss, cut there with the rest set aside). A decision-log file
 *       left open is then complete: it is listed with its length and checksum.</li>
 *   <li>A directory of format 1 (no manifest, no checksums: the previous version) is upgraded in
 *       place: its files are listed as they are, marked legacy (read without checksums), and the
 *       state is written anew, sealed, at the first snapshot ({@link #upgraded()}).</li>
 * </ul>
 */
public final class DataDir implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DataDir.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Path root;
    private final DataDirLock lock;
    private final Manifest manifest;
    private final boolean upgraded;

    private DataDir(Path root, DataDirLock lock, Manifest manifest, boolean upgraded) {
        this.root = root;
        this.lock = lock;
        this.manifest = manifest;
        this.upgraded = upgraded;
    }

    /**
     * Locks and checks {@code root} (created when missing). Blocking; at start-up.
     *
     * @throws DataDirRefused when the directory is in use, or has missing, foreign or corrupt pieces
     *                        that {@code acceptLoss} does not accept
     */
    public static DataDir open(Path root, boolean acceptLoss) {
        DataDirLock lock = null;
        try {
            lock = DataDirLock.acquire(root);
            boolean upgraded = false;
            Manifest m;
            if (Files.exists(root.resolve(Manifest.NAME))) {
                m = Manifest.read(root);
            } else {
                List<String> present = DataDirFiles.list(root);
                m = present.isEmpty() && empty(root) ? Manifest.created(root) : Manifest.fresh(root);
                if (!present.isEmpty()) {
                    upgraded = FormatOne.adopt(root, m, present, acceptLoss);
                }
            }
            reconcile(root, m, acceptLoss);
            m.write();
            return new DataDir(root, lock, m, upgraded);
        } catch (IOException e) {
            if (lock != null) {
                lock.close();
            }
            throw new UncheckedIOException("cannot open the data directory " + root + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (lock != null) {
                lock.close();
            }
            throw e;
        }
    }

    /** Whether {@code root} holds nothing but the lock this start just took: a directory it creates. */
    private static boolean empty(Path root) throws IOException {
        try (java.util.stream.Stream<Path> s = Files.list(root)) {
            return s.allMatch(p -> p.getFileName().toString().equals(DataDirLock.NAME));
        }
    }

    /**
     * Which files of {@code root} are of format 1, for a reader that does not own the directory
     * (an export beside a running server): the manifest's word, or, with no manifest (a directory
     * the previous version wrote), every file.
     */
    public static java.util.function.Predicate<Path> legacyFiles(Path root) {
        if (!Files.exists(root.resolve(Manifest.NAME))) {
            return p -> true;
        }
        try {
            return Manifest.read(root)::legacy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + root.resolve(Manifest.NAME), e);
        }
    }

    public Path root() {
        return root;
    }

    /** Where a start accepting a loss puts what it takes out of the directory: {@code set-aside/<time>/}. */
    public static Path asideFolder(Path root) {
        return root.resolve("set-aside").resolve(STAMP.format(Instant.now()));
    }

    /** Where each writer registers its files. */
    public FileRegistry registry() {
        return manifest;
    }

    public Manifest manifest() {
        return manifest;
    }

    /** Whether {@code file} was written before checksums (format 1): its lines are read unsealed. */
    public boolean legacy(Path file) {
        return manifest.legacy(file);
    }

    /** Whether this open upgraded a format-1 directory: the state is to be written anew now. */
    public boolean upgraded() {
        return upgraded;
    }

    @Override
    public void close() {
        lock.close();
    }

    /** Compares the manifest with the disk, finishes what a crash cut short, and refuses or sets aside the rest. */
    private static void reconcile(Path root, Manifest m, boolean acceptLoss) throws IOException {
        List<DataDirCheck.Finding> findings = DataDirCheck.compare(root, m.files());
        List<String> problems = findings.stream().filter(DataDirCheck.Finding::problem).map(DataDirCheck.Finding::text).toList();
        if (!problems.isEmpty() && !acceptLoss) {
            throw new DataDirRefused("data directory " + root + " is not whole:\n  " + String.join("\n  ", problems)
                    + "\nRestore these from a backup, or start with --accept-data-loss to go on without what is missing "
                    + "(state rolls back to what the remaining files hold) and set foreign files aside; "
                    + "signalman data verify --data " + root + " checks the whole directory");
        }
        Path aside = asideFolder(root);
        for (DataDirCheck.Finding f : findings) {
            Path p = root.resolve(f.rel());
            switch (f.kind()) {
                case LEFTOVER, SUPERSEDED -> Files.delete(p);
                case COMPRESSED -> {
                    Path original = root.resolve(DataDirFiles.original(f.rel()));
                    m.replaced(original, p, Files.size(p), DataDirFiles.crc(p));
                    Files.deleteIfExists(original);
                    LOG.info("{}: finished a compression that a stop cut short", p);
                }
                case RENAME -> {
                    Files.move(p.resolveSibling(p.getFileName() + ".tmp"), p, StandardCopyOption.ATOMIC_MOVE);
                    LOG.info("{}: finished a snapshot's rename that a stop cut short", p);
                }
                case MISSING -> m.unlist(f.rel());
                case ALTERED, FOREIGN -> {
                    setAside(root, f.rel(), aside);
                    m.unlist(f.rel());
                }
            }
            if (f.problem()) {
                LOG.error("data directory {}: accepting the loss (--accept-data-loss): {}", root, f.text());
            }
        }
        judgeOpenFiles(root, m, acceptLoss);
    }

    /** Files the last run left open: torn tails cut, corruption refused (or cut, accepting the loss); logs closed. */
    private static void judgeOpenFiles(Path root, Manifest m, boolean acceptLoss) throws IOException {
        for (var e : m.files().entrySet()) {
            String rel = e.getKey();
            if (e.getValue().closed() || DataDirFiles.compressed(rel)) {
                continue;
            }
            Path p = root.resolve(rel);
            RecordScan.Result scan = RecordScan.scan(p, e.getValue().legacy());
            if (scan.corrupt() != null) {
                if (!acceptLoss) {
                    throw RecordFile.corrupt(scan);
                }
                Path aside = asideFolder(root);
                Files.createDirectories(aside);
                Path rest = aside.resolve(p.getFileName() + ".from-" + scan.corrupt().offset());
                try (FileChannel in = FileChannel.open(p, StandardOpenOption.READ);
                     FileChannel out = FileChannel.open(rest, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    in.transferTo(scan.corrupt().offset(), in.size() - scan.corrupt().offset(), out);
                    out.force(true);
                }
                // The scan stopped at the first bad record: its whole records (and checksum) end where it starts.
                cut(p, scan.wholeBytes());
                LOG.error("{}: corrupt at byte {} (--accept-data-loss): cut there; the rest is kept in {}", p,
                        scan.corrupt().offset(), rest);
            } else if (scan.tornBytes() > 0) {
                cut(p, scan.wholeBytes());
                LOG.warn("{}: cut a torn last record ({} bytes after byte {}): a write cut short by a crash, never "
                        + "acknowledged", p, scan.tornBytes(), scan.wholeBytes());
            }
            if (DataDirFiles.log(rel)) {
                m.closed(p, scan.wholeBytes(), scan.crc());
            }
        }
    }

    private static void cut(Path p, long length) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate(length);
            ch.force(true);
        }
    }

    private static void setAside(Path root, String rel, Path aside) throws IOException {
        Path target = aside.resolve(rel);
        Files.createDirectories(target.getParent());
        Files.move(root.resolve(rel), target);
        LOG.error("data directory {}: {} set aside in {}", root, rel, target);
    }
}
