package io.signalman.rulesgit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commits of a rules folder: the folder's bundle files as given, a file the activation
 * removed gone, hidden files and everything outside the folder as {@code HEAD} had them; the
 * first commit of a new repository; a folder in no work tree, or in a bare repository, refused.
 */
class RulesRepositoryTest {

    @TempDir
    Path dir;

    private static final RulesCommit NOTE = new RulesCommit("a change", Identity.of("ana"), List.of(), Identity.of("cy"), List.of(),
            1, null, 1, null);

    @Test
    void aCommitReplacesTheFoldersBundleFilesAndKeepsItsHiddenFilesAndEverythingOutside() throws Exception {
        // Given a repository with rules/ (two files and a .gitignore) and a file outside it
        Path rules = dir.resolve("team/rules");
        Files.createDirectories(rules.resolve("broker"));
        Files.writeString(rules.resolve("broker/a.drl"), "a1");
        Files.writeString(rules.resolve("broker/b.drl"), "b1");
        Files.writeString(rules.resolve(".gitignore"), "*.swp\n");
        Files.writeString(dir.resolve("NOTES.md"), "notes");
        try (Git git = Git.init().setDirectory(dir.toFile()).call()) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("start").setSign(false).call();
        }
        RulesRepository repo = RulesRepository.locate(rules);
        assertEquals("team/rules/", repo.prefix());

        // When an activation changes a.drl, removes b.drl, adds c.drl
        Files.writeString(rules.resolve("broker/a.drl"), "a2");
        Files.delete(rules.resolve("broker/b.drl"));
        Files.writeString(rules.resolve("broker/c.drl"), "c1");
        RulesRepository.Committed c = repo.commit(Map.of("broker/a.drl", bytes("a2"), "broker/c.drl", bytes("c1")), NOTE);

        // Then the commit holds exactly that, and the work tree is clean
        assertEquals(Set.of("NOTES.md", "team/rules/.gitignore", "team/rules/broker/a.drl", "team/rules/broker/c.drl"),
                paths(c.commit()));
        try (Git git = Git.open(dir.toFile())) {
            assertTrue(git.status().call().isClean(), git.status().call().getUncommittedChanges().toString());
        }
        assertEquals(1, repo.commits());
    }

    @Test
    void aNewRepositorysFirstCommitIsTheFolder() throws Exception {
        Files.writeString(dir.resolve("a.drl"), "a");
        Git.init().setDirectory(dir.toFile()).setInitialBranch("trunk").call().close();
        RulesRepository repo = RulesRepository.locate(dir);
        assertEquals("", repo.prefix());

        RulesRepository.Committed c = repo.commit(Map.of("a.drl", bytes("a")), NOTE);

        assertEquals(Set.of("a.drl"), paths(c.commit()));
        assertEquals("trunk", c.branch());
    }

    @Test
    void aFolderInNoWorkTreeOrInABareRepositoryIsRefused() throws Exception {
        Path alone = Files.createDirectories(dir.resolve("alone"));
        // Precondition: nothing above the temporary folder is a repository.
        org.junit.jupiter.api.Assumptions.assumeTrue(new FileRepositoryBuilder().findGitDir(alone.toFile()).getGitDir() == null);
        RulesGitRefused none = assertThrows(RulesGitRefused.class, () -> RulesRepository.locate(alone));
        assertTrue(none.getMessage().contains("not inside a Git work tree"), none.getMessage());

        Path bare = dir.resolve("bare.git");
        Git.init().setBare(true).setDirectory(bare.toFile()).call().close();
        Path inside = Files.createDirectories(bare.resolve("rules"));
        RulesGitRefused b = assertThrows(RulesGitRefused.class, () -> RulesRepository.locate(inside));
        assertTrue(b.getMessage().contains("bare"), b.getMessage());
    }

    @Test
    void noGitBinaryIsRunNotEvenByJGitLookingForTheSystemConfiguration() throws Exception {
        // Given a git on the PATH that leaves a mark when anyone runs it (JGit would, to find /etc/gitconfig)
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path mark = dir.resolve("git-was-run");
        Path git = bin.resolve("git");
        Files.writeString(git, "#!/bin/sh\necho \"$@\" >> '" + mark + "'\nexit 1\n");
        assertTrue(git.toFile().setExecutable(true));
        Path work = Files.createDirectories(dir.resolve("work/rules"));
        Git.init().setDirectory(work.getParent().toFile()).call().close();

        // When a separate JVM, with that PATH, commits the folder
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Child.class.getName(), work.toString()).redirectErrorStream(true);
        pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        pb.environment().remove("GIT_CONFIG_NOSYSTEM");
        Process p = pb.start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        // Then it committed, and git never ran
        assertEquals(0, p.waitFor(), said);
        assertTrue(!Files.exists(mark), "git was run: " + (Files.exists(mark) ? Files.readString(mark) : ""));
        List<String> lines = said.strip().lines().toList();
        assertEquals(Set.of("rules/a.drl"), paths(work.getParent(), lines.get(lines.size() - 1)));
    }

    /** The child of {@link #noGitBinaryIsRunNotEvenByJGitLookingForTheSystemConfiguration}: commits and prints the id. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            System.out.println(RulesRepository.locate(Path.of(args[0])).commit(Map.of("a.drl", bytes("a")), NOTE).commit());
        }
    }

    private Set<String> paths(String commit) throws Exception {
        return paths(dir, commit);
    }

    private static Set<String> paths(Path dir, String commit) throws Exception {
        Set<String> out = new TreeSet<>();
        try (Repository r = new FileRepositoryBuilder().setWorkTree(dir.toFile()).build(); RevWalk w = new RevWalk(r);
             TreeWalk tw = new TreeWalk(r)) {
            RevCommit c = w.parseCommit(r.resolve(commit));
            tw.addTree(c.getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                out.add(tw.getPathString());
            }
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
