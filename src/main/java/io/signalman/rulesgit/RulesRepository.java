package io.signalman.rulesgit;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.util.FS;

/**
 * The Git work tree the rules folder is in ({@code serve --rules-git}), and the commits that
 * record its activations, made with JGit (no {@code git} binary is run).
 *
 * <p>A commit holds the rules folder as the activation made it and every other path as
 * {@code HEAD} holds it: the tree is {@code HEAD}'s with the folder's bundle files replaced by
 * the activated revision's (files the activation removed are gone; hidden files, which are no
 * part of a bundle, stay as {@code HEAD} has them). Nothing else a user changed or staged in the
 * work tree goes in. The index is updated for the folder's files alone, so that {@code git status}
 * then shows the folder clean. The commit goes onto whatever {@code HEAD} is (the branch checked
 * out), under the index's lock: a lock someone else holds fails the commit, never waits.
 *
 * <p>NOTE: written from the bytes the activation wrote, as they are: no hook runs (pre-commit,
 * commit-msg, post-commit), no clean filter or end-of-line conversion applies (Git LFS,
 * {@code core.autocrlf}), and the commit is not signed. The commit is the activation's record;
 * a hook that could refuse it, or rewrite the files, would make Git's history and the activation
 * history disagree.
 */
public final class RulesRepository {

    static {
        // NOTE: JGit finds Git's system-wide configuration by running `git config --system --show-origin`
        // (and `git --version`) when a git binary is on the PATH. No git binary is run here: the system
        // configuration is where Git keeps it by default (GIT_CONFIG_SYSTEM, as Git reads it, else
        // /etc/gitconfig; GIT_CONFIG_NOSYSTEM, which JGit honours, skips it).
        String system = System.getenv("GIT_CONFIG_SYSTEM");
        FS.DETECTED.setGitSystemConfig(new File(system != null && !system.isBlank() ? system : "/etc/gitconfig"));
    }

    private final Path gitDir;
    private final Path workTree;
    private final Path rules;
    /** The rules folder's path in the repository, with a final {@code /}; empty when it is the work tree's root. */
    private final String prefix;
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    private RulesRepository(Path gitDir, Path workTree, Path rules, String prefix) {
        this.gitDir = gitDir;
        this.workTree = workTree;
        this.rules = rules;
        this.prefix = prefix;
    }

    /**
     * The work tree {@code rules} is in (the folder itself or one above it holds {@code .git}).
     *
     * @throws RulesGitRefused when there is none, it is bare, or it cannot be read
     */
    public static RulesRepository locate(Path rules) {
        Path folder;
        try {
            folder = rules.toRealPath();
        } catch (IOException e) {
            throw new RulesGitRefused("--rules-git: the rules folder " + rules + " cannot be read (" + e.getMessage() + ")");
        }
        FileRepositoryBuilder builder = new FileRepositoryBuilder().setMustExist(true).findGitDir(folder.toFile());
        if (builder.getGitDir() == null) {
            throw new RulesGitRefused("--rules-git: the rules folder " + rules + " is not inside a Git work tree (no .git in "
                    + "it or any folder above it); run git init there (or clone the rules repository), or leave --rules-git off");
        }
        try (Repository repo = builder.build()) {
            if (repo.isBare()) {
                throw new RulesGitRefused("--rules-git: the rules folder " + rules + " is inside a bare repository ("
                        + repo.getDirectory() + "), which has no work tree to commit from");
            }
            Path tree = repo.getWorkTree().toPath().toRealPath();
            Path git = repo.getDirectory().toPath().toRealPath();
            if (!folder.startsWith(tree) || folder.startsWith(git)) {
                throw new RulesGitRefused("--rules-git: the rules folder " + rules + " is not in the work tree " + tree
                        + " of " + git);
            }
            String rel = tree.relativize(folder).toString().replace(File.separatorChar, '/');
            return new RulesRepository(git, tree, folder, rel.isEmpty() ? "" : rel + "/");
        } catch (IOException | IllegalArgumentException e) {
            throw new RulesGitRefused("--rules-git: the Git repository of " + rules + " cannot be opened: " + e.getMessage());
        }
    }

    /** The work tree's root. */
    public Path workTree() {
        return workTree;
    }

    /** The rules folder's path in the repository ({@code rules/}; empty at the root). */
    public String prefix() {
        return prefix;
    }

    /** Commits made since start. */
    public long commits() {
        return commits.get();
    }

    /** Commits that failed since start. */
    public long failures() {
        return failures.get();
    }

    /** A commit made: its id and the branch it went onto (null on a detached {@code HEAD}). */
    public record Committed(String commit, String branch) {
    }

    /**
     * Commits {@code files} (the bundle's paths, relative to the rules folder, and their bytes)
     * as the rules folder, said as {@code what} says. Blocking file I/O: a worker. One at a time.
     *
     * @throws IOException when no commit could be made (the index locked, {@code HEAD} moved meanwhile, a disk error)
     */
    public synchronized Committed commit(Map<String, byte[]> files, RulesCommit what) throws IOException {
        try {
            Committed c = write(files, what);
            commits.incrementAndGet();
            return c;
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
            throw e;
        }
    }

    private Committed write(Map<String, byte[]> files, RulesCommit what) throws IOException {
        FolderTree folder = new FolderTree(workTree, prefix);
        try (Repository repo = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setWorkTree(workTree.toFile())
                .setMustExist(true).build();
             ObjectInserter inserter = repo.newObjectInserter();
             RevWalk walk = new RevWalk(repo)) {
            DirCache index = repo.lockDirCache();
            boolean done = false;
            try {
                Ref head = repo.exactRef(Constants.HEAD);
                ObjectId parent = head == null ? null : head.getObjectId();
                FolderTree.Built tree = folder.build(repo, inserter, parent == null ? null : walk.parseCommit(parent), files);
                Instant now = Instant.now();
                PersonIdent committer = person(what.committer(), now);
                CommitBuilder commit = new CommitBuilder();
                commit.setTreeId(tree.tree());
                if (parent != null) {
                    commit.setParentId(parent);
                }
                commit.setAuthor(person(what.author(), now));
                commit.setCommitter(committer);
                commit.setEncoding(StandardCharsets.UTF_8);
                commit.setMessage(what.message());
                ObjectId id = inserter.insert(commit);
                inserter.flush();
                // The index goes to its lock file first, HEAD moves, then the lock becomes the index.
                folder.stage(index, tree, files);
                RefUpdate update = repo.updateRef(Constants.HEAD);
                update.setNewObjectId(id);
                update.setExpectedOldObjectId(parent == null ? ObjectId.zeroId() : parent);
                update.setRefLogIdent(committer);
                update.setRefLogMessage("commit: " + Trailers.oneLine(what.message().lines().findFirst().orElse("")), false);
                RefUpdate.Result result = update.update(walk);
                if (result != RefUpdate.Result.NEW && result != RefUpdate.Result.FAST_FORWARD) {
                    throw new IOException("HEAD of " + workTree + " was not moved to the new commit (" + result
                            + "): it changed meanwhile, or its ref is locked");
                }
                if (!index.commit()) {
                    throw new IOException("commit " + id.name() + " was made, but the index of " + workTree
                            + " could not be written: git status shows the rules folder as changed until git reset");
                }
                done = true;
                String branch = repo.getFullBranch();
                return new Committed(id.name(), branch != null && branch.startsWith(Constants.R_HEADS)
                        ? branch.substring(Constants.R_HEADS.length()) : null);
            } finally {
                if (!done) {
                    index.unlock();
                }
            }
        }
    }

    private static PersonIdent person(Identity who, Instant when) {
        return new PersonIdent(who.name(), who.email(), when, ZoneOffset.UTC);
    }

    @Override
    public String toString() {
        return workTree + (prefix.isEmpty() ? "" : " (" + prefix + ")");
    }

    /** The rules folder (its real path). */
    public Path rules() {
        return rules;
    }
}
