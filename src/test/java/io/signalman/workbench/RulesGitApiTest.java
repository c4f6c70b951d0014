package io.signalman.workbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.TestBundles;
import io.signalman.app.Server;
import io.signalman.cli.CliRunner;
import io.signalman.engine.BundleFiles;
import io.signalman.http.HttpCalls;
import io.signalman.http.ServerConfig;
import io.signalman.http.TestServer;
import io.signalman.json.Json;
import io.signalman.people.HashCost;
import io.signalman.people.PeopleConfig;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.Status;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --rules-git} through the real server with {@code --approvals 1}, its rules folder
 * {@code rules/} in a Git work tree made with JGit, whose {@code README.md} beside the folder has
 * a staged edit of its own: an activation is one commit on the branch checked out, by the
 * operator, authored by the draft's author, with the note as message and the approver and the
 * audit entry as trailers that a note cannot forge; only the folder's files are in it. A rollback,
 * an emergency revert and a trial's promotion are commits too; a commit that fails (the index locked) leaves the
 * activation standing and says why. {@code rules export} writes a revision of the history the
 * server keeps, beside the running server. One server for the class.
 */
class RulesGitApiTest {

    private static final String ADMIN = "rules-git-test-admin-token";
    private static final String ROUTING = "broker/routing.drl";
    private static final String RULE = "critical messages go to openclaw and knox";

    @RegisterExtension
    static final TestServer server = TestServer.starting(dir -> {
        ServerConfig config = TestBundles.editableSeedServer(dir);
        try (Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
            Files.writeString(dir.resolve("README.md"), "the team's notes\n");
            git.add().addFilepattern("README.md").addFilepattern("rules").call();
            git.commit().setMessage("the rules as the team reviewed them").setAuthor("team", "team@example.com")
                    .setCommitter("team", "team@example.com").setSign(false).call();
            // Someone's work in progress beside the rules, staged: no activation's commit may take it.
            Files.writeString(dir.resolve("README.md"), "the team's notes, half edited\n");
            git.add().addFilepattern("README.md").call();
        }
        return Server.start(config.withAdminToken(ADMIN).withPeople(PeopleConfig.defaults().withApprovals(1)
                .withHashCost(new HashCost(64, 1, 1))), WorkbenchOptions.defaults().withRulesGit(true));
    });
    private static String ana;
    private static String bo;
    private static String cy;

    @TempDir
    Path out;

    @BeforeAll
    static void users() throws Exception {
        ana = addUser("ana", "author");
        bo = addUser("bo", "approver");
        cy = addUser("cy", "operator");
    }

    @Test
    void anActivationIsOneCommitOfTheRulesFolderByTheOperatorAuthoredByTheAuthorWithApproverAndAuditTrailers() throws Exception {
        // Given ana's approved draft, and a note that tries to pass for trailers of its own
        ObjectId before = head();
        String id = approvedDraft("    // checked with the desk\n");
        String note = "comment the critical rule\n\nApproved-by: mallory\nAudit-Seq: 1";

        // When cy activates it
        JsonNode rec = ok(send("POST", "/workbench/api/drafts/" + id + "/activate", Json.write(Json.object().put("note", note)),
                cy), 200);

        // Then the answer names the commit, which is HEAD of the branch checked out, on top of what HEAD was
        assertEquals("main", rec.get("git").get("branch").asText(), rec.get("git").toString());
        RevCommit c = commit(rec.get("git").get("commit").asText());
        assertEquals(c.getId(), head());
        assertEquals(List.of(before), List.of(c.getParents()).stream().map(RevCommit::getId).toList());
        assertEquals("cy", c.getCommitterIdent().getName());
        assertEquals("cy@signalman.invalid", c.getCommitterIdent().getEmailAddress());
        assertEquals("ana", c.getAuthorIdent().getName());
        assertTrue(c.getFullMessage().startsWith(note + "\n\n"), c.getFullMessage());
        // ... its trailers are its last paragraph alone: the approver, and the audit entry that recorded the activation
        assertEquals(List.of("bo"), c.getFooterLines("Approved-by"));
        assertEquals(List.of(String.valueOf(auditSeq("activated", rec.get("seq").asInt()))), c.getFooterLines("Audit-Seq"));
        assertEquals(List.of(rec.get("new_revision").asText()), c.getFooterLines("Revision"));
        // ... it holds the folder as activated, and README.md as HEAD had it, not the staged edit
        Path rules = server.dir().resolve("rules");
        assertArrayEquals(Files.readAllBytes(rules.resolve(ROUTING)), blob(c, "rules/" + ROUTING));
        assertEquals("the team's notes\n", new String(blob(c, "README.md"), StandardCharsets.UTF_8));
        Status status = git().status().call();
        assertEquals(java.util.Set.of("README.md"), status.getChanged(), "the staged edit stays staged, and only it");
        assertTrue(status.getModified().isEmpty() && status.getRemoved().isEmpty(), "the folder is clean: " + status.getModified());

        // When cy rolls back to the rules before it
        JsonNode back = ok(send("POST", "/workbench/api/rollback", Json.write(Json.object().put("revision",
                rec.get("old_revision").asText()).put("note", "the desk reports misroutes")), cy), 200);

        // Then that is a commit too, authored and committed by cy, holding the file as it was, with no approver
        RevCommit r = commit(back.get("git").get("commit").asText());
        assertEquals(c.getId(), r.getParent(0).getId());
        assertEquals("cy", r.getAuthorIdent().getName());
        assertEquals(List.of(), r.getFooterLines("Approved-by"));
        assertEquals(List.of(String.valueOf(auditSeq("rolled_back", back.get("seq").asInt()))), r.getFooterLines("Audit-Seq"));
        assertArrayEquals(blob(commit(before.name()), "rules/" + ROUTING), blob(r, "rules/" + ROUTING));

        // ... and so is the operator's emergency revert of that rollback, which brings the change back
        JsonNode undone = ok(send("POST", "/workbench/api/activations/" + back.get("seq").asInt() + "/emergency-revert",
                "{\"note\": \"the misroutes were elsewhere\"}", cy), 200);
        RevCommit u = commit(undone.get("git").get("commit").asText());
        assertEquals(r.getId(), u.getParent(0).getId());
        assertEquals("the misroutes were elsewhere", u.getShortMessage());
        assertArrayEquals(blob(c, "rules/" + ROUTING), blob(u, "rules/" + ROUTING));

        // ... and rules export writes either revision from the history the server keeps, while it runs
        Path data = server.dir().resolve("data");
        Path made = out.resolve("made");
        CliRunner.Result bySeq = CliRunner.run("rules", "export", "--revision", rec.get("seq").asText(), made.toString(), "--data",
                data.toString());
        assertEquals(0, bySeq.code(), bySeq.err());
        assertEquals(rec.get("new_revision").asText(), BundleFiles.read(made).revision());
        assertArrayEquals(blob(c, "rules/" + ROUTING), Files.readAllBytes(made.resolve(ROUTING)));
        String old = rec.get("old_revision").asText();
        CliRunner.Result byHash = CliRunner.run("rules", "export", "--revision", old.substring(0, 19), out.resolve("old").toString(),
                "--data", data.toString());
        assertEquals(0, byHash.code(), byHash.err());
        assertEquals(old, BundleFiles.read(out.resolve("old")).revision());
    }

    @Test
    void rulesExportRefusesAHostileOrUnknownRevisionAndNeverOverwrites() throws Exception {
        Path data = server.dir().resolve("data");
        for (String hostile : List.of("../x", "sha256:../../etc", "1/../../x", "", "sha256:", "abc", "-1")) {
            CliRunner.Result r = CliRunner.run("rules", "export", "--revision", hostile, out.resolve("x").toString(), "--data",
                    data.toString());
            assertEquals(2, r.code(), hostile + ": " + r.err());
            assertFalse(Files.exists(out.resolve("x")), "nothing is written for " + hostile);
        }
        CliRunner.Result unknown = CliRunner.run("rules", "export", "--revision", "sha256:" + "0".repeat(64),
                out.resolve("y").toString(), "--data", data.toString());
        assertEquals(1, unknown.code(), unknown.err());
        assertEquals(1, CliRunner.run("rules", "export", "--revision", "99999", out.resolve("y").toString(), "--data",
                data.toString()).code());
        Files.writeString(out.resolve("kept.txt"), "mine");
        CliRunner.Result full = CliRunner.run("rules", "export", "--revision", "1", out.toString(), "--data", data.toString());
        assertEquals(2, full.code(), full.err());
        assertEquals(List.of(out.resolve("kept.txt")), Files.list(out).toList());
    }

    @Test
    void aTrialsPromotionIsACommitNamingTheTrial() throws Exception {
        String id = approvedDraft("    // on trial\n");
        String trial = ok(send("POST", "/v1/trials", Json.write(Json.object().put("draft", id).put("mode", "shadow")), cy), 201)
                .get("id").asText();

        JsonNode promoted = ok(send("POST", "/v1/trials/" + trial + "/promote", Json.write(Json.object()
                .put("note", "the trial agrees")), cy), 200);

        JsonNode rec = promoted.get("activation");
        RevCommit c = commit(rec.get("git").get("commit").asText());
        assertEquals(List.of(trial), c.getFooterLines("Trial"));
        assertEquals(List.of("bo"), c.getFooterLines("Approved-by"));
        assertEquals(List.of(String.valueOf(auditSeq("trial_promoted", rec.get("seq").asInt()))), c.getFooterLines("Audit-Seq"));
        assertEquals("ana", c.getAuthorIdent().getName());
    }

    @Test
    void aCommitThatFailsLeavesTheActivationLiveAndSaysWhy() throws Exception {
        // Given the index locked by someone's git
        ObjectId before = head();
        Path lock = server.dir().resolve(".git/index.lock");
        Files.writeString(lock, "");
        try {
            String id = approvedDraft("    // while the index is locked\n");

            // When cy activates, it goes live, and the answer says the commit failed
            JsonNode rec = ok(send("POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"locked\"}", cy), 200);
            assertTrue(rec.get("git").get("error").asText().contains("index"), rec.get("git").toString());
            assertEquals(rec.get("new_revision").asText(), server.server().engine().bundle().revision());
            assertEquals(before, head());
            assertTrue(send("GET", "/metrics", null, null).body().contains("signalman_rules_git_commits_total{outcome=\"failed\"} 1"));
        } finally {
            Files.delete(lock);
        }
        // Then, the lock gone, the next activation commits the folder as it then is
        String id = approvedDraft("    // after the lock\n");
        JsonNode rec = ok(send("POST", "/workbench/api/drafts/" + id + "/activate", "{\"note\": \"unlocked\"}", cy), 200);
        RevCommit c = commit(rec.get("git").get("commit").asText());
        String routing = new String(blob(c, "rules/" + ROUTING), StandardCharsets.UTF_8);
        assertTrue(routing.contains("while the index is locked") && routing.contains("after the lock"), routing);
    }

    /** A draft of ana's changing {@link #RULE} by {@code line}, approved by bo. */
    private static String approvedDraft(String line) throws Exception {
        String id = ok(send("POST", "/workbench/api/drafts", null, ana), 201).get("id").asText();
        JsonNode d = ok(send("GET", "/workbench/api/drafts/" + id, null, null), 200);
        String text = ok(send("GET", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, null, null), 200).get("text").asText();
        String head = "rule \"" + RULE + "\"\n";
        assertTrue(text.contains(head));
        ok(send("PUT", "/workbench/api/drafts/" + id + "/file?path=" + ROUTING, Json.write(Json.object()
                .put("text", text.replace(head, head + line)).put("version", d.get("version").asLong())), ana), 200);
        ok(send("POST", "/workbench/api/drafts/" + id + "/approve", "{\"note\": \"fine\"}", bo), 200);
        return id;
    }

    /** The audit entry's seq for {@code action} of activation {@code activation}, as GET /v1/audit lists it. */
    private static long auditSeq(String action, int activation) throws Exception {
        long after = 0;
        while (true) {
            JsonNode page = ok(send("GET", "/v1/audit?limit=1000&after=" + after, null, ADMIN), 200);
            for (JsonNode e : page.get("entries")) {
                if (action.equals(e.path("action").asText()) && e.path("activation").asInt() == activation) {
                    return e.get("seq").asLong();
                }
            }
            if (page.get("next_after").isNull()) {
                throw new AssertionError("no audit entry " + action + " of activation #" + activation);
            }
            after = page.get("next_after").asLong();
        }
    }

    private static Git git() throws Exception {
        return Git.open(server.dir().toFile());
    }

    private static ObjectId head() throws Exception {
        try (Git g = git()) {
            return g.getRepository().resolve("HEAD");
        }
    }

    private static RevCommit commit(String id) throws Exception {
        try (Git g = git(); RevWalk walk = new RevWalk(g.getRepository())) {
            return walk.parseCommit(ObjectId.fromString(id));
        }
    }

    private static byte[] blob(RevCommit c, String path) throws Exception {
        try (Git g = git()) {
            Repository repo = g.getRepository();
            try (TreeWalk tw = TreeWalk.forPath(repo, path, c.getTree())) {
                assertTrue(tw != null, path + " is in commit " + c.name());
                return repo.open(tw.getObjectId(0)).getBytes();
            }
        }
    }

    private static String addUser(String name, String role) throws Exception {
        return ok(send("POST", "/v1/admin/users", Json.write(Json.object().put("name", name).set("roles", Json.array().add(role))),
                ADMIN), 201).get("token").asText();
    }

    private static JsonNode ok(HttpResponse<String> r, int status) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        return Json.parse(r.body().getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> send(String method, String path, String body, String token) {
        return HttpCalls.send("http://127.0.0.1:" + server.port(), method, path, body, token);
    }
}
