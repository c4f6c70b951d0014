package io.signalman.workbench;

import io.signalman.engine.BundleException;
import io.signalman.engine.BundleFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Copies of bundle revisions, by content hash, under {@code <data>/workbench/revisions/<hash>/}:
 * every revision that was live before or after an activation (what a rollback restores and a
 * revert undoes), and every revision a draft was made from (what a rebase diffs the draft
 * against). Content-addressed, so drafts made from one revision share one copy; written once,
 * into a temporary folder moved into place, so a copy is whole or absent.
 */
final class Revisions {

    private static final Pattern REVISION = Pattern.compile("sha256:[0-9a-f]{64}");

    private final Path root;

    Revisions(Path data) {
        this.root = data.resolve("workbench").resolve("revisions");
    }

    /** Keeps a copy of {@code files} (once). Blocking file I/O. */
    void keep(BundleFiles files) {
        Path dir = dir(files.revision());
        if (Files.isDirectory(dir)) {
            return;
        }
        Path tmp = dir.resolveSibling("." + dir.getFileName() + ".tmp-" + Thread.currentThread().getId());
        try {
            for (String p : files.paths()) {
                Path target = DraftPaths.resolve(tmp, p);
                Files.createDirectories(target.getParent());
                Files.write(target, files.bytes(p));
            }
            Files.createDirectories(tmp);
            Files.move(tmp, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // Another thread kept the same revision first: the content is the same.
            deleteQuietly(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep a copy of revision " + files.revision(), e);
        }
    }

    boolean has(String revision) {
        return revision != null && REVISION.matcher(revision).matches() && Files.isDirectory(dir(revision));
    }

    /** The files of a kept revision; 404 when there is no copy of it. */
    BundleFiles read(String revision) {
        if (!has(revision)) {
            throw new WorkbenchException(404, "unknown_revision", "no copy of revision " + revision + " is kept here");
        }
        try {
            return BundleFiles.read(dir(revision));
        } catch (BundleException e) {
            throw WorkbenchException.located(500, "revision_unreadable", "the copy of " + revision + " cannot be read", e.errors());
        }
    }

    static boolean wellFormed(String revision) {
        return revision != null && REVISION.matcher(revision).matches();
    }

    private Path dir(String revision) {
        return root.resolve(revision.replace("sha256:", ""));
    }

    private static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a leftover temporary folder is hidden and never read
        }
    }
}
