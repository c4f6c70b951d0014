package io.signalman.rulesgit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The tree of a rules folder's commit, and the index after it: {@code HEAD}'s tree with the
 * folder's bundle files (under {@link #prefix}, no hidden segment) replaced by an activation's,
 * and the index with the same entries for those paths and its own for every other.
 */
final class FolderTree {

    /** The tree written, and the folder's entries in it by path in the repository. */
    record Built(ObjectId tree, Map<String, DirCacheEntry> entries) {
    }

    private final Path workTree;
    private final String prefix;

    FolderTree(Path workTree, String prefix) {
        this.workTree = workTree;
        this.prefix = prefix;
    }

    /** Writes the blobs of {@code files} (paths relative to the folder) and the tree over {@code parent}'s (null: none). */
    Built build(Repository repo, ObjectInserter inserter, RevCommit parent, Map<String, byte[]> files) throws IOException {
        Map<String, FileMode> modes = new TreeMap<>();
        DirCache tree = DirCache.newInCore();
        DirCacheBuilder builder = tree.builder();
        if (parent != null) {
            try (TreeWalk tw = new TreeWalk(repo)) {
                tw.addTree(parent.getTree());
                tw.setRecursive(true);
                while (tw.next()) {
                    String path = tw.getPathString();
                    if (replaced(path)) {
                        modes.put(path, tw.getFileMode(0));
                        continue;
                    }
                    DirCacheEntry e = new DirCacheEntry(path);
                    e.setFileMode(tw.getFileMode(0));
                    e.setObjectId(tw.getObjectId(0));
                    builder.add(e);
                }
            }
        }
        Map<String, DirCacheEntry> written = new TreeMap<>();
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String path = prefix + f.getKey();
            if (!replaced(path)) {
                throw new IOException("not a bundle file of the rules folder: " + f.getKey());
            }
            // DirCacheEntry refuses a path Git would: "..", ".git", an empty segment.
            DirCacheEntry e = new DirCacheEntry(path);
            e.setFileMode(FileMode.EXECUTABLE_FILE.equals(modes.get(path)) ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE);
            e.setObjectId(inserter.insert(Constants.OBJ_BLOB, f.getValue()));
            builder.add(new DirCacheEntry(e));
            written.put(path, e);
        }
        builder.finish();
        return new Built(tree.writeTree(inserter), written);
    }

    /** The locked {@code index} with the folder's entries of {@code built} and its own for the rest (written to the lock). */
    void stage(DirCache index, Built built, Map<String, byte[]> files) throws IOException {
        DirCacheBuilder staged = index.builder();
        for (int i = 0; i < index.getEntryCount(); i++) {
            DirCacheEntry e = index.getEntry(i);
            if (!replaced(e.getPathString())) {
                staged.add(e);
            }
        }
        for (Map.Entry<String, DirCacheEntry> e : built.entries().entrySet()) {
            staged.add(withStat(e.getValue(), files.get(e.getKey().substring(prefix.length()))));
        }
        staged.finish();
        index.write();
    }

    /**
     * The index entry with the file's size and time when the folder holds exactly these bytes,
     * so that {@code git status} needs no rehash; otherwise (the folder changed meanwhile) without,
     * so that Git looks at the content.
     */
    private DirCacheEntry withStat(DirCacheEntry entry, byte[] bytes) {
        DirCacheEntry e = new DirCacheEntry(entry);
        Path file = workTree.resolve(entry.getPathString());
        try {
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) == bytes.length
                    && Arrays.equals(Files.readAllBytes(file), bytes)) {
                e.setLength(bytes.length);
                e.setLastModified(Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toInstant());
            }
        } catch (IOException x) {
            // No stat: Git compares the content instead.
        }
        return e;
    }

    /** Whether {@code path} (in the repository) is a bundle file of the rules folder: under it, no hidden segment. */
    boolean replaced(String path) {
        if (!path.startsWith(prefix)) {
            return false;
        }
        for (String part : path.substring(prefix.length()).split("/")) {
            if (part.startsWith(".")) {
                return false;
            }
        }
        return true;
    }
}
