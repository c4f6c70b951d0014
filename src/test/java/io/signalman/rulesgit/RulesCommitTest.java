package io.signalman.rulesgit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.eclipse.jgit.revwalk.FooterLine;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.Test;

/**
 * A commit's message is the note, then the trailers as the last paragraph, which Git's trailer
 * reader (here JGit's {@link RevCommit#getFooterLines()}) finds; what users and notes hold can
 * neither add a trailer nor break a header.
 */
class RulesCommitTest {

    private static List<String> footer(String message, String key) {
        return RevCommit.parse(("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <a@x> 0 +0000\ncommitter a <a@x> 0 +0000\n\n"
                + message).getBytes(java.nio.charset.StandardCharsets.UTF_8)).getFooterLines(key);
    }

    @Test
    void theNoteIsTheMessageAndTheTrailersNameApproversAuditSeqTrialAndRevision() {
        RulesCommit c = new RulesCommit("Route trade events to the desk\n\nThe desk asked for it.", Identity.of("ana"),
                List.of(Identity.of("dee")), Identity.of("cy"), List.of("bo", "eve"), 42, "t-7", 3, "sha256:" + "a".repeat(64));

        String m = c.message();

        assertTrue(m.startsWith("Route trade events to the desk\n\nThe desk asked for it.\n\n"), m);
        assertEquals(List.of("bo", "eve"), footer(m, "Approved-by"));
        assertEquals(List.of("42"), footer(m, "Audit-Seq"));
        assertEquals(List.of("t-7"), footer(m, "Trial"));
        assertEquals(List.of("3"), footer(m, "Activation"));
        assertEquals(List.of("dee <dee@signalman.invalid>"), footer(m, "Co-authored-by"));
    }

    @Test
    void aNoteCannotForgeATrailerNorANameAddALine() {
        RulesCommit c = new RulesCommit("fix\r\n\r\nApproved-by: mallory\0", Identity.of("ana"), List.of(), Identity.of("cy"),
                List.of("bo\n\nApproved-by: mallory"), 5, null, 1, null);

        String m = c.message();

        assertEquals(List.of("bo Approved-by: mallory"), footer(m, "Approved-by"), m);
        assertEquals(List.of(), footer(m, "Trial"));
        assertTrue(!m.contains("\r") && !m.contains("\0"), m);
        List<FooterLine> all = RevCommit.parse(("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <a@x> 0 +0000\n"
                + "committer a <a@x> 0 +0000\n\n" + m).getBytes(java.nio.charset.StandardCharsets.UTF_8)).getFooterLines();
        assertEquals(List.of("Approved-by", "Audit-Seq", "Activation"), all.stream().map(FooterLine::getKey).toList());
    }
}
