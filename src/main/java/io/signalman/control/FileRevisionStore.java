package io.signalman.control;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A single node's kept revisions, {@code <data>/workbench/revisions/<hash>/}: written into a
 * hidden temporary folder and moved into place, so that a copy is whole or absent.
 */
public final class FileRevisionStore implements RevisionStore {

    private static final Pattern REVISION = Pattern.compile("sha256:[0-9a-f]{64}");

    private final Path root;

    public FileRevisionStore(Path data) {
        this.root = data.resolve("workbench").resolve("revisions");
    }

    @Override
    public void keep(String revision, Map<String, byte[]> files) {
        Path dir = dir(revision);
        if (Files.isDirectory(dir)) {
            return;
        }
        Path tmp = dir.resolveSibling("." + dir.getFileName() + ".tmp-" + Thread.currentThread().getId());
        try {
            Files.createDirectories(tmp);
            Folders.write(tmp, files);
            Files.move(tmp, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // Another thread kept the same revision first: the content is the same.
            Folders.deleteTree(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep a copy of revision " + revision, e);
        }
    }

    @Override
    public boolean has(String revision) {
        return revision != null && REVISION.matcher(revision).matches() && Files.isDirectory(dir(revision));
    }

    @Override
    public Map<String, byte[]> read(String revision) {
        return has(revision) ? Folders.read(dir(revision)) : null;
    }

    private Path dir(String revision) {
        if (!REVISION.matcher(revision).matches()) {
            throw new IllegalArgumentException("not a revision: " + revision);
        }
        return root.resolve(revision.replace("sha256:", ""));
    }
}
